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

            func perEvent(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
                let start = ContinuousClock.now
                for _ in 0..<iterations { try body() }
                return (ContinuousClock.now - start).seconds / Double(iterations) * 1_000_000
            }
            if let only {
                if only == "scan" {
                    // The fastest of five rounds, as below: one pass swung by half between runs.
                    let scan = try stored.withUnsafeBytes { bytes in
                        try (0..<5).map { _ in try perEvent(count / 5) { try ours.validate(bytes) } }.min() ?? 0
                    }
                    print(#"{"type": "\#(name)", "scan_us": \#(String(format: "%.3f", scan))}"#)
                    return
                }
                for _ in 0..<(count * 10) {
                    if only == "decode" { _ = try EventEnvelope<P>.decodeStored(stored) } else { _ = try envelope.encodeStored() }
                }
                return
            }
            // Five rounds, each timing every coder in turn, and each coder's fastest round: on a
            // shared 2-core VM a burst of another process's work lasts long enough to spoil whole
            // blocks of one coder's runs, so all are measured side by side and alike.
            let measures: [() throws -> Void] = [
                { _ = try foundationDecoder.decode(EventEnvelope<P>.self, from: stored) },
                { _ = try EventEnvelope<P>.decodeStored(stored) },
                { _ = try ours.decode(EventEnvelope<P>.self, from: stored) },
                { _ = try foundationEncoder.encode(envelope) },
                { _ = try envelope.encodeStored() },
                { _ = try oursEncoder.encodeData(envelope) },
            ]
            for measure in measures { _ = try perEvent(count / 10, measure) } // warm-up
            var best = [Double](repeating: .infinity, count: measures.count)
            for _ in 0..<5 {
                for (index, measure) in measures.enumerated() { best[index] = min(best[index], try perEvent(count / 5, measure)) }
            }
            let (decodeFoundation, decodeOurs, decodeGeneric, encodeFoundation, encodeOurs, encodeGeneric) =
                (best[0], best[1], best[2], best[3], best[4], best[5])
            func f(_ value: Double) -> String { String(format: "%.3f", value) }
            print(#"{"type": "\#(name)", "bytes": \#(stored.count), "decode_us": \#(f(decodeOurs)), "foundation_decode_us": \#(f(decodeFoundation)), "generic_decode_us": \#(f(decodeGeneric)), "encode_us": \#(f(encodeOurs)), "foundation_encode_us": \#(f(encodeFoundation)), "generic_encode_us": \#(f(encodeGeneric))}"#)
        }
    }
}
