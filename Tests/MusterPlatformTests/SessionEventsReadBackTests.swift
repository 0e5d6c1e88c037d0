import MusterEvents
import MusterPlatform
import Testing

/// Session events are `StoredExactly`: the process that signs a person in folds the session it
/// appended instead of decoding it again, so each must be what its stored text decodes back to
/// (every optional set or not, a device name beyond ASCII).
@Suite("Session events read back as they were appended")
struct SessionEventsReadBackTests {
    func readsBack<P: EventPayload & Equatable>(_ payload: P) throws {
        let bytes = try EventEnvelope(source: "test", data: payload).encodeStored()
        let decoded = try EventCatalog.platform.decode(subject: P.eventType.subject(aggregateID: payload.aggregateID), sequence: 1, payload: bytes)
        #expect(decoded.payload as? P == payload, "\(P.eventType)")
    }

    @Test func everySessionEvent() throws {
        let session = "00000000-0000-4000-8000-000000000001", person = "00000000-0000-4000-8000-000000000002"
        let hash = String(repeating: "0f", count: 32)
        try readsBack(SessionStarted(sessionId: session, personId: person, orgId: "00000000-0000-4000-8000-000000000003", app: "offleash", refreshHash: hash,
                                     refreshExpiresAt: "2027-01-06T10:00:00.125Z"))
        try readsBack(SessionStarted(sessionId: session, personId: person, orgId: "00000000-0000-4000-8000-000000000003", app: "shieldai", refreshHash: hash,
                                     refreshExpiresAt: "2027-01-06T10:00:00Z", deviceId: "dev_" + String(repeating: "a", count: 32),
                                     deviceName: "Zoë's iPhone \"15\"\n", platform: "ios"))
        try readsBack(SessionRefreshed(sessionId: session, refreshHash: hash, refreshExpiresAt: "2027-01-06T10:00:00Z"))
        try readsBack(SessionRevoked(sessionId: session, reason: "signed-out-elsewhere"))
    }
}
