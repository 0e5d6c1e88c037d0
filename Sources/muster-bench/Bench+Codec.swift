import ArgumentParser
import Foundation
import MusterAnalytics
import MusterCommandLine
import MusterEvents
import MusterJSON
import MusterOPL

extension Bench {
    /// Our JSON codec against Foundation's on the same stored envelopes (each event type's first
    /// schema example in its envelope): µs an event, decoding and encoding, one JSON line a type.
    /// "generic" is our Codable coder on the whole envelope, without the hand-read attributes.
    struct Codec: ParsableCommand {
        @Option var count = 100_000
        @Option(help: "Run only our decoder or encoder, for a profile (decode, encode), or time the scan alone (scan).") var only: String?

        func run() throws {
            try measure(ScreenViewed.self, "analytics.screen.viewed.v1")
            try measure(ActionSubmitted.self, "opl.action.submitted.v1")
        }

        func measure<P: EventPayload>(_ type: P.Type, _ name: String) throws {
            let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "schemas/events/\(P.eventType.app)/\(P.eventType.aggregate).\(P.eventType.event).v\(P.eventType.major).json"))) as? [String: Any]
            guard let example = (schema?["examples"] as? [Any])?.first else { throw CommandFailure("no example for \(name)") }
            let data = try JSONDecoder().decode(P.self, from: JSONSerialization.data(withJSONObject: example))
            let envelope = EventEnvelope(source: "bench", data: data)
            let foundationEncoder = JSONEncoder()
            foundationEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let stored = try foundationEncoder.encode(envelope)
            let (foundationDecoder, ours, oursEncoder) = (JSONDecoder(), JSONBytesDecoder(), JSONBytesEncoder())
            guard try ours.decode(EventEnvelope<P>.self, from: stored) == envelope, try EventEnvelope<P>.decodeStored(stored) == envelope,
                  try foundationDecoder.decode(EventEnvelope<P>.self, from: envelope.encodeStored()) == envelope else {
                throw CommandFailure("\(name): the coders disagree")
            }

            func perEvent(_ body: () throws -> Void) rethrows -> Double {
                for _ in 0..<(count / 10) { try body() } // warm-up
                let start = ContinuousClock.now
                for _ in 0..<count { try body() }
                return (ContinuousClock.now - start).seconds / Double(count) * 1_000_000
            }
            if let only {
                if only == "scan" {
                    let scan = try stored.withUnsafeBytes { bytes in try perEvent { try ours.validate(bytes) } }
                    print(#"{"type": "\#(name)", "scan_us": \#(String(format: "%.3f", scan))}"#)
                    return
                }
                for _ in 0..<(count * 10) {
                    if only == "decode" { _ = try EventEnvelope<P>.decodeStored(stored) } else { _ = try envelope.encodeStored() }
                }
                return
            }
            let decodeFoundation = try perEvent { _ = try foundationDecoder.decode(EventEnvelope<P>.self, from: stored) }
            let decodeOurs = try perEvent { _ = try EventEnvelope<P>.decodeStored(stored) }
            let decodeGeneric = try perEvent { _ = try ours.decode(EventEnvelope<P>.self, from: stored) }
            let encodeFoundation = try perEvent { _ = try foundationEncoder.encode(envelope) }
            let encodeOurs = try perEvent { _ = try envelope.encodeStored() }
            let encodeGeneric = try perEvent { _ = try oursEncoder.encodeData(envelope) }
            func f(_ value: Double) -> String { String(format: "%.3f", value) }
            print(#"{"type": "\#(name)", "bytes": \#(stored.count), "decode_us": \#(f(decodeOurs)), "foundation_decode_us": \#(f(decodeFoundation)), "generic_decode_us": \#(f(decodeGeneric)), "encode_us": \#(f(encodeOurs)), "foundation_encode_us": \#(f(encodeFoundation)), "generic_encode_us": \#(f(encodeGeneric))}"#)
        }
    }
}
