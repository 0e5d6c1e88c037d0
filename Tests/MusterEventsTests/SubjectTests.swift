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
        #expect(throws: EventDecodingError.unknownType("test.thing.heard.v1")) {
            try catalog.decode(subject: "events.test.thing.a-1.heard.v1", sequence: 1, payload: stored(Said.eventType, "a-1"))
        }
        // A major spelled with a leading zero is no subject Muster writes, but it parses as before.
        #expect(try catalog.decode(subject: "events.test.thing.a-1.said.v01", sequence: 1, payload: stored(Said.eventType, "a-1")).storedType == Said.eventType)
        #expect(throws: EventDecodingError.badSubject("events.test.thing")) {
            try catalog.decode(subject: "events.test.thing", sequence: 1, payload: Data())
        }
    }

    struct Counted: EventPayload {
        static let eventType = EventType(app: "test", aggregate: "thing", event: "counted", major: 1)
        var id: String
        var count: Int
        var aggregateID: String { id }
        func validate() throws { guard (0...10).contains(count) else { throw EventValidationError(field: "/count", "must be 0 to 10") } }
    }

    /// A major newer than the build knows (the next version's, in a rolling upgrade) is read as
    /// the newest it knows when it only adds fields, and said to need an upgrade when it does not.
    @Test func aNewerMajorIsReadForwardWhenItOnlyAdds() throws {
        var catalog = EventCatalog()
        catalog.register(Counted.self)
        func stored(major: Int, data: String) -> Data {
            Data(#"{"data":\#(data),"datacontenttype":"application/json","dataschema":"schemas/events/test/thing.counted.v\#(major).json","id":"6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5c","source":"/test","specversion":"1.0","subject":"a-1","time":"2026-02-10T19:23:45Z","type":"test.thing.counted.v\#(major)"}"#.utf8)
        }
        let event = try catalog.decode(subject: "events.test.thing.a-1.counted.v2", sequence: 9,
                                       payload: stored(major: 2, data: #"{"id":"a-1","count":3,"unit":"boxes"}"#))
        #expect(event.storedType == EventType(app: "test", aggregate: "thing", event: "counted", major: 2))
        #expect(event.type == Counted.eventType)
        #expect(event.payload(as: Counted.self)?.count == 3)
        // A field the build knows is still held to its rules; one it needs and does not find is a breaking change.
        for data in [#"{"id":"a-1","count":30,"unit":"boxes"}"#, #"{"id":"a-1","total":3}"#, #"{"id":"a-1","count":"3"}"#] {
            let error = #expect(throws: EventDecodingError.self) {
                try catalog.decode(subject: "events.test.thing.a-1.counted.v2", sequence: 9, payload: stored(major: 2, data: data))
            }
            guard case .newerMajor(let newer, let known, _) = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(newer == "test.thing.counted.v2" && known == "test.thing.counted.v1")
            #expect(error?.description.contains("upgrade this service") == true)
        }
        // The envelope must say the major its subject names.
        #expect(throws: EventDecodingError.self) {
            try catalog.decode(subject: "events.test.thing.a-1.counted.v2", sequence: 9, payload: stored(major: 1, data: #"{"id":"a-1","count":3}"#))
        }
        // A subject naming another id than the envelope's is no newer-major question.
        #expect(throws: EventDecodingError.self) {
            try catalog.decode(subject: "events.test.thing.b-2.counted.v2", sequence: 9, payload: stored(major: 2, data: #"{"id":"a-1","count":3}"#))
        }
        #expect(Counted.eventType.familyFilter == "events.test.thing.*.counted.*")
    }
}
