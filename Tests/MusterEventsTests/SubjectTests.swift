import Foundation
import MusterEvents
import Testing

@Suite("Subjects: split without building strings, and the catalog's lookup by a type's name")
struct SubjectTests {
    @Test func parsesTheSixParts() throws {
        let (type, id) = try #require(Subject.parse("events.pop.install.6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5c.synced.v12"))
        #expect(type == EventType(app: "pop", aggregate: "install", event: "synced", major: 12))
        #expect(id == "6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5c")
    }

    @Test func refusesWhatIsNoSubjectOfTheLog() {
        let long = String(repeating: "a", count: 129)
        for subject in ["", "events", "events.a.b.c.d", "events.a.b.c.d.v1.x", "evens.a.b.c.d.v1", "events..b.c.d.v1",
                        "events.a.b.c.d.v0", "events.a.b.c.d.1", "events.a.b.c.d.v", "events.a.b.c.d.v1x", "events.a.b.c.d.v-1",
                        "events.a.b.c.d.v12345678901", "events.a.b.\(long).d.v1", "events.a.b c.c.d.v1", "events.a.b.c.d.v1.",
                        ".events.a.b.c.d.v1", "events.a.b.c.é.v1", "events.a.b.*.d.v1", "events.a.b.>.d.v1"] {
            #expect(Subject.parse(subject) == nil, "\(subject)")
        }
        #expect(Subject.parse("events.a.b.\(String(repeating: "a", count: 128)).d.v1") != nil)
    }

    struct Said: EventPayload {
        static let eventType = EventType(app: "test", aggregate: "thing", event: "said", major: 1)
        var id: String
        var aggregateID: String { id }
    }

    struct SaidAgain: EventPayload {
        static let eventType = EventType(app: "test", aggregate: "thing", event: "said", major: 2)
        var id: String
        var aggregateID: String { id }
    }

    struct Other: EventPayload {
        static let eventType = EventType(app: "test", aggregate: "thingsaid", event: "x", major: 1)
        var id: String
        var aggregateID: String { id }
    }

    /// The catalog finds a stored event's type from the two halves of its subject around the id:
    /// the right major of a family, and a type whose aggregate is another's aggregate and event.
    @Test func catalogFindsTheTypeOfASubject() throws {
        var catalog = EventCatalog()
        catalog.register(Said.self)
        catalog.register(SaidAgain.self)
        catalog.register(Other.self)
        func stored(_ type: EventType, _ id: String) -> Data {
            Data(#"{"data":{"id":"\#(id)"},"datacontenttype":"application/json","dataschema":"https://muster.example/schemas/events/\#(type.app)/\#(type.aggregate).\#(type.event).v\#(type.major).json","id":"6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5c","source":"/test","specversion":"1.0","subject":"\#(id)","time":"2026-02-10T19:23:45Z","type":"\#(type)"}"#.utf8)
        }
        for type in [Said.eventType, SaidAgain.eventType, Other.eventType] {
            let event = try catalog.decode(subject: type.subject(aggregateID: "a-1"), sequence: 7, payload: stored(type, "a-1"))
            #expect(event.storedType == type)
            #expect(event.aggregateID == "a-1")
        }
        #expect(throws: EventDecodingError.unknownType("test.thing.said.v3")) {
            try catalog.decode(subject: "events.test.thing.a-1.said.v3", sequence: 1, payload: stored(Said.eventType, "a-1"))
        }
        // A major spelled with a leading zero is no subject Muster writes, but it parses as before.
        #expect(try catalog.decode(subject: "events.test.thing.a-1.said.v01", sequence: 1, payload: stored(Said.eventType, "a-1")).storedType == Said.eventType)
        #expect(throws: EventDecodingError.badSubject("events.test.thing")) {
            try catalog.decode(subject: "events.test.thing", sequence: 1, payload: Data())
        }
    }
}
