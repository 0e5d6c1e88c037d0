import Foundation
import MusterEvents
import MusterJSON
import Testing

@Suite("The stored envelope reads and writes a payload by hand when its type has a hand reader or writer")
struct StoredDispatchTests {
    /// Reads and writes itself by hand, and says so: its hand reader marks what it read, its
    /// hand writer writes one more member, so a test can tell which way was taken.
    struct ByHand: EventPayload, StoredFieldsDecodable, JSONObjectEncodable {
        static let eventType = EventType(app: "test", aggregate: "thing", event: "handled", major: 1)
        var id: String
        var readByHand = false
        var aggregateID: String { id }

        init(id: String, readByHand: Bool = false) {
            (self.id, self.readByHand) = (id, readByHand)
        }

        init(storedFields fields: JSONFields) throws {
            self.init(id: try fields.required(fields.string("id"), "id"), readByHand: true)
        }

        func encodeMembers(_ object: inout JSONObjectWriter) throws {
            try object.string("id", id)
            try object.string("written", "by hand")
        }
    }

    /// Neither: its `Codable` conformance does both.
    struct ByCodable: EventPayload {
        static let eventType = EventType(app: "test", aggregate: "thing", event: "coded", major: 1)
        var id: String
        var aggregateID: String { id }
    }

    @Test func aTypeWithAHandReaderAndWriterIsReadAndWrittenByThem() throws {
        let stored = try EventEnvelope(source: "test", data: ByHand(id: "a")).encodeStored()
        #expect(String(decoding: stored, as: UTF8.self).contains(#""data":{"id":"a","written":"by hand"}"#))
        #expect(try EventEnvelope<ByHand>.decodeStored(stored).data == ByHand(id: "a", readByHand: true))
    }

    @Test func aTypeWithoutThemGoesThroughCodable() throws {
        let envelope = EventEnvelope(source: "test", data: ByCodable(id: "b"))
        let stored = try envelope.encodeStored()
        #expect(String(decoding: stored, as: UTF8.self).contains(#""data":{"id":"b"}"#))
        #expect(try EventEnvelope<ByCodable>.decodeStored(stored) == envelope)
    }

    @Test func aHandReadPayloadMissingNamesItsPath() throws {
        let stored = try EventEnvelope(source: "test", data: ByCodable(id: "c")).encodeStored()
        let text = String(decoding: stored, as: UTF8.self).replacingOccurrences(of: #"{"id":"c"}"#, with: "{}")
        do {
            _ = try EventEnvelope<ByHand>.decodeStored(Data(text.utf8))
            Issue.record("read without its id")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "id" && context.codingPath.map(\.stringValue) == ["data"])
        }
    }
}
