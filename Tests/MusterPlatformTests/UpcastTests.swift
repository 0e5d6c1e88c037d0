import Foundation
import MusterEvents
import MusterPlatform
import MusterRuntime
import Testing

@Suite("Events: envelope, subjects, upcasting")
struct UpcastTests {
    let catalog = apps.catalog

    func stored<P: EventPayload>(_ payload: P) throws -> Data {
        try JSONEncoder().encode(EventEnvelope(source: "test", data: payload))
    }

    @Test func revokedV1IsReadAsV2() throws {
        let data = try stored(APIKeyRevokedV1(keyId: "key_0123456789abcdef"))
        let event = try catalog.decode(subject: "events.platform.apikey.key_0123456789abcdef.revoked.v1", sequence: 3, payload: data)
        #expect(event.storedType == APIKeyRevokedV1.eventType)
        #expect(event.type == APIKeyRevoked.eventType)
        let v2 = try #require(event.payload(as: APIKeyRevoked.self))
        #expect(v2.keyId == "key_0123456789abcdef")
        #expect(v2.revokedBy == "unknown")
        #expect(catalog.newest("platform.apikey.revoked") == APIKeyRevoked.eventType)
    }

    @Test func subjectsRoundTrip() throws {
        let subject = APIKeyIssued.eventType.subject(aggregateID: "key_0123456789abcdef")
        #expect(subject == "events.platform.apikey.key_0123456789abcdef.issued.v1")
        let parsed = try #require(Subject.parse(subject))
        #expect(parsed.type == APIKeyIssued.eventType && parsed.aggregateID == "key_0123456789abcdef")
        #expect(Subject.parse("events.platform.apikey.a.b.issued.v1") == nil)
        #expect(Subject.parse("events.platform.apikey.x.issued.v0") == nil)
        #expect(Subject.parse("events.platform.apikey.x y.issued.v1") == nil)
    }

    @Test func decodingNamesWhatIsWrong() throws {
        let cases: [(String, String, String)] = [
            ("events.platform.apikey.key_0123456789abcdef.revoked.v2", "{not json", "/"),
            ("events.platform.apikey.key_0123456789abcdef.revoked.v2", #"{"specversion":"1.0"}"#, "/datacontenttype: is required"),
            ("events.nope.thing.x.happened.v1", "{}", "unknown event type"),
            ("random.subject", "{}", "is not events."),
        ]
        for (subject, body, expected) in cases {
            let error = #expect(throws: EventDecodingError.self) {
                _ = try catalog.decode(subject: subject, sequence: 1, payload: Data(body.utf8))
            }
            #expect(error?.description.contains(expected) == true, "\(error?.description ?? "") should mention \(expected)")
        }
    }

    @Test func envelopeMustMatchItsSubject() throws {
        let data = try stored(APIKeyRevoked(keyId: "key_0123456789abcdef", reason: "r", revokedBy: "t"))
        #expect(throws: EventDecodingError.self) {
            _ = try catalog.decode(subject: "events.platform.apikey.key_aaaaaaaaaaaaaaaa.revoked.v2", sequence: 1, payload: data)
        }
        #expect(throws: EventDecodingError.self) {
            _ = try catalog.decode(subject: "events.platform.apikey.key_0123456789abcdef.revoked.v1", sequence: 1, payload: data)
        }
    }
}
