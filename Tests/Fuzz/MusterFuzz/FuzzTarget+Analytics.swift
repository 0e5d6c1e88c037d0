import Foundation
@testable import MusterAnalytics
import MusterEvents
import NIOCore
import NIOFoundationEssentialsCompat

extension FuzzTarget {
    static let redactor = Redactor()

    /// A collector batch (events, then crashes) from decoding to the events it would append.
    static func collector(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        if let batch = try? decoder.decode(WireBatch.self, from: data),
           let clock = try? Collector.clock(sentAt: batch.sentAt, receivedMillis: 1_795_269_605_000) {
            let context = batch.context.logContext(app: "offleash", redactor: redactor)
            for item in batch.events {
                guard case .success(let event) = item.result, let logged = try? event.logEvent(context: context, clock: clock, redactor: redactor) else { continue }
                check(logged)
            }
        }
        if let batch = try? decoder.decode(WireCrashBatch.self, from: data),
           let clock = try? Collector.clock(sentAt: batch.sentAt, receivedMillis: 1_795_269_605_000) {
            for item in batch.reports {
                guard case .success(let report) = item.result, let logged = try? report.logEvent(app: "offleash", clock: clock, redactor: redactor) else { continue }
                check(logged)
            }
        }
    }

    /// What the log would do next: validate, encode, scan for control characters.
    static func check(_ payload: some EventPayload) {
        _ = try? payload.validate()
        if let encoded = try? JSONEncoder().encode(payload) { _ = ControlCharacters.firstField(inJSON: Array(encoded)) }
    }

    /// A gzip body: inflated within the bound, or refused; never more than the bound.
    static func gzip(_ bytes: [UInt8]) {
        guard let inflated = try? CollectorRoutes.inflate(ByteBuffer(bytes: bytes), encoding: "gzip") else { return }
        require(inflated.readableBytes <= CollectorRoutes.maxBytes, "inflated to \(inflated.readableBytes) bytes")
        _ = try? JSONDecoder().decode(WireBatch.self, from: Data(buffer: inflated))
    }

    /// Free text and JSON through redaction: it never grows text without end, and a second pass
    /// finds nothing more to take out.
    static func redaction(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let once = redactor.redact(text)
        require(redactor.redact(once) == once, "redaction is not idempotent on \(text.debugDescription)")
        if let json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) { _ = json.redacted(by: redactor) }
    }
}
