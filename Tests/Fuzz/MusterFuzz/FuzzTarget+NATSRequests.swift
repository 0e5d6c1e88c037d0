import Foundation
@testable import MusterField
@testable import MusterNATS
@testable import MusterOPL
@testable import MusterPlatform
import MusterRuntime

extension FuzzTarget {
    /// The NATS request endpoints (`muster.ingest.append`, `svc.geocode.forward` and `.reverse`)
    /// read any bytes without trapping, and refuse what they cannot take with a 4xx code. What the
    /// server sends back is read without trapping too: a publish ack (never sequence 0), a reply's
    /// token (or batch and index) read from its C subject (one that parses reads back the same), a delivery's ack
    /// subject read in place, and a delivered subject matched against the projections' filters
    /// (a plain subject matches itself). What another instance shares (limits, presence) is read
    /// without trapping, and never lets a limit grow.
    static func natsRequests(_ bytes: [UInt8]) {
        let data = Data(bytes)
        func refusedWith4xx(_ body: () throws -> Void) {
            do { try body() } catch let error as MicroServiceError {
                require((400..<500).contains(error.code), "refused with \(error.code): \(error)")
            } catch {
                require(false, "not a MicroServiceError: \(error)")
            }
        }
        refusedWith4xx { _ = try LogAppendEndpoint.parse(data, catalog: catalog, maxBytes: 256 * 1024) }
        refusedWith4xx { _ = try GeocodeEndpoints.forwardQuery(data) }
        refusedWith4xx { _ = try GeocodeEndpoints.reverseQuery(data) }
        if let ack = PubAck.fastParse(data) { require(ack.seq > 0, "an ack of sequence 0 was taken") }
        let limiter = RateLimiter(perMinute: 60), now = ContinuousClock.now
        limiter.incoming(data, from: "fuzz", now: now)
        let clients = (try? JSONDecoder().decode([String: Int].self, from: data)).map { Array($0.keys.prefix(3)) } ?? []
        for client in clients {
            var taken = 0
            while limiter.take(client, now: now) == nil && taken <= 60 { taken += 1 }
            require(taken <= 60, "another instance's news gave \(client.debugDescription) more than a bucket")
        }
        AttemptLimiter().incoming(data, from: "fuzz", now: now)
        FieldPresence().incoming(data, from: "fuzz", now: now)
        let subject = String(decoding: bytes, as: UTF8.self)
        if let token = subject.withCString(ReplyRouter.Box.token(ofSubject:)) {
            require("_INBOX.x.\(token)".withCString(ReplyRouter.Box.token(ofSubject:)) == token, "\(subject): token \(token)")
        }
        if case let (token?, index?) = subject.withCString(ReplyRouter.Box.address(ofSubject:)) {
            require(index >= 0, "\(subject): index \(index)")
            let again = "_INBOX.x.\(token)_\(index)".withCString(ReplyRouter.Box.address(ofSubject:))
            require(again.token == token && again.index == index, "\(subject): batch \(token) index \(index)")
        }
        _ = bytes.withUnsafeBufferPointer { DeliveryInfo(ackSubject: $0, stream: "EVENTS", consumer: "proj_keys_v1") }
        _ = SubjectFilter(["events.analytics.>", "events.crash.>", "events.opl.action.*.submitted.v1"]).matches(subject)
        let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
        if !tokens.contains(where: { $0.isEmpty || $0 == "*" || $0 == ">" }) {
            require(SubjectFilter([subject]).matches(subject), "\(subject) does not match itself")
        }
    }
}
