import Foundation
import MusterAnalytics
import MusterEvents
import MusterField
import MusterJSON
import MusterNotifications
import MusterOPL
import MusterPlatform
import MusterPoP
import MusterRuntime
import MusterTesting
import PropertyBased
import Testing

/// Our JSON codec and Foundation's read and write every registered event type the same way: each
/// type's schema examples with their strings and numbers replaced by random ones (any Unicode,
/// control characters, quotes; large and fractional numbers), decoded by both, and each one's
/// encoding read back by the other. Equality is judged on Foundation's sorted re-encoding.
@Suite("JSON codec agrees with Foundation on every event type")
struct CodecAgreementTests {
    static func examples() -> [(EventType, Any)] {
        var found: [(EventType, Any)] = []
        for type in apps.catalog.types {
            let url = URL(fileURLWithPath: Repository.path(type.schemaPath))
            guard let data = try? Data(contentsOf: url), let schema = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let examples = schema["examples"] as? [Any] else { continue }
            found += examples.map { (type, $0) }
        }
        return found
    }

    /// Text with a third ASCII (control characters included), the rest anywhere in Unicode.
    static let text = Gen<UInt32>.value(in: 0...0x10FFFF)
        .compactMap { Unicode.Scalar($0 % 3 == 0 ? $0 % 0x80 : $0) }
        .map { Character($0) }
        .string(of: 0...12)

    /// Replaces each string and number leaf, round robin from the random ones.
    static func mutate(_ value: Any, _ strings: [String], _ ints: [Int], _ doubles: [Double], _ counter: inout Int) -> Any {
        counter += 1
        switch value {
        case let object as [String: Any]: return object.mapValues { mutate($0, strings, ints, doubles, &counter) }
        case let array as [Any]: return array.map { mutate($0, strings, ints, doubles, &counter) }
        case is String: return strings[counter % strings.count]
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return number // a boolean
            case "d", "f": return doubles[counter % doubles.count]
            default: return ints[counter % ints.count]
            }
        default: return value
        }
    }

    static let foundationEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Decodes `json` as `P` both ways and crosses the encodings; returns a disagreement, if any.
    static func disagreement<P: EventPayload>(_ type: P.Type, _ json: Data) -> String? {
        let theirs = try? JSONDecoder().decode(P.self, from: json)
        let ours = try? JSONBytesDecoder().decode(P.self, from: json)
        guard let theirs, let ours else {
            return (theirs == nil) == (ours == nil) ? nil : "\(P.self): decodes with \(theirs == nil ? "ours" : "Foundation") only: \(String(decoding: json, as: UTF8.self))"
        }
        guard let canonical = try? foundationEncoder.encode(theirs), let oursCanonical = try? foundationEncoder.encode(ours) else {
            return "\(P.self): Foundation cannot encode what it decoded"
        }
        guard canonical == oursCanonical else { return "\(P.self): decoded differently: \(String(decoding: json, as: UTF8.self))" }
        // Our encoding read by Foundation, and Foundation's read by ours.
        guard let ourBytes = try? JSONBytesEncoder().encodeData(ours),
              let back = try? JSONDecoder().decode(P.self, from: ourBytes), (try? foundationEncoder.encode(back)) == canonical else {
            return "\(P.self): Foundation reads our encoding differently"
        }
        guard let forth = try? JSONBytesDecoder().decode(P.self, from: canonical), (try? foundationEncoder.encode(forth)) == canonical else {
            return "\(P.self): we read Foundation's encoding differently"
        }
        // The stored envelope both ways, too.
        let envelope = EventEnvelope(source: "test", data: ours)
        guard let stored = try? envelope.encodeStored(), (try? JSONDecoder().decode(EventEnvelope<P>.self, from: stored)) == envelope,
              let foundationStored = try? foundationEncoder.encode(envelope), stored == foundationStored,
              (try? EventEnvelope<P>.decodeStored(foundationStored)) == envelope else {
            return "\(P.self): the stored envelope differs"
        }
        return nil
    }

    /// The hand-read types go through `StoredFieldsDecodable` in `decodeStored`, which the
    /// envelope check below compares with Foundation's reading.
    @Test func theHotTypesAreReadByHand() {
        for type in [ScreenViewed.self, ScreenLoaded.self, APICalled.self, FunnelReached.self, ProgressSynced.self, MutationsPushed.self,
                     ActionSubmitted.self, NotificationScheduled.self, SessionStarted.self] as [any EventPayload.Type] {
            #expect(type is any StoredFieldsDecodable.Type, "\(type)")
            #expect(type is any JSONObjectEncodable.Type, "\(type) is written by hand too")
        }
    }

    @Test func everyTypeHasExamples() {
        #expect(Set(Self.examples().map(\.0)) == Set(apps.catalog.types))
    }

    @Test func randomPayloadsOfEveryTypeDecodeAndEncodeAlike() async {
        let catalog = apps.catalog
        let examples = Self.examples()
        var checked = 0
        await propertyCheck(count: 60, input: Self.text.array(of: 5...9), Gen.int(in: -5_000_000_000...5_000_000_000).array(of: 5...9),
                            Gen.double(in: -1e9...1e9).array(of: 5...9)) { strings, ints, doubles in
            for (type, example) in examples {
                var counter = 0
                let mutated = Self.mutate(example, strings, ints, doubles, &counter)
                guard let json = try? JSONSerialization.data(withJSONObject: mutated), let payload = catalog.payloadType(type) else {
                    Issue.record("\(type): no payload type or example")
                    continue
                }
                if let problem = Self.disagreement(payload, json) { Issue.record("\(problem)") }
                checked += 1
            }
        }
        #expect(checked >= 60 * examples.count, "\(checked) payloads checked")
    }
}
