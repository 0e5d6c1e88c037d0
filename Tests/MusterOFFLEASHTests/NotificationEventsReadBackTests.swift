import MusterEvents
import MusterNotifications
import MusterPush
import Testing

/// The notifier's and the dispatcher's events are `StoredExactly`: a fold in the process that
/// appended one folds the value it appended, so each must be what its stored text decodes back
/// to (every optional set, text beyond ASCII, the largest numbers).
@Suite("Notification and push events read back as they were appended")
struct NotificationEventsReadBackTests {
    static let push = "psh_" + String(repeating: "0f", count: 16)
    static let device = "dev_" + String(repeating: "a", count: 32)
    static let notice = Notice(app: "offleash", category: "walk-confirmed", personId: "00000000-0000-4000-8000-000000000001",
                               about: "booking-1", title: "Walk confirmed 🐕",
                               body: "Tuesday, 10:00 — \"Rex\"\nsee you", screen: "booking", id: "b1", mailSubject: "Your walk",
                               mailText: "Ça marche", urgent: true)

    func readsBack<P: EventPayload & Equatable>(_ payload: P, in catalog: EventCatalog) throws {
        let bytes = try EventEnvelope(source: "test", data: payload).encodeStored()
        let decoded = try catalog.decode(subject: P.eventType.subject(aggregateID: payload.aggregateID), sequence: 1, payload: bytes)
        #expect(decoded.payload as? P == payload, "\(P.eventType)")
    }

    @Test func everyNotificationEvent() throws {
        let decision = NotificationDecision(key: "now:evt_1:0", version: UInt64.max, notice: Self.notice, channel: .push)
        try readsBack(NotificationScheduled(key: "remind:booking-1", notice: Self.notice, dueAt: "2026-12-09T10:00:00Z",
                                            channels: ["push", "email", "sms"], reason: "reminder"), in: .notifications)
        let device = Notice(app: "offleash", category: "walk-confirmed", deviceId: "dev_" + String(repeating: "a", count: 32),
                            about: "booking-1", title: "t", body: "b")
        try readsBack(NotificationScheduled(key: "gather:x", notice: device, dueAt: "2026-12-09T10:00:00Z", channels: ["push"], reason: "gathering"),
                      in: .notifications)
        try readsBack(NotificationCancelled(key: "remind:booking-1", reason: "changed"), in: .notifications)
        try readsBack(NotificationSent(decision: decision, pushId: Self.push), in: .notifications)
        try readsBack(NotificationSent(decision: decision, pushId: nil), in: .notifications)
        try readsBack(NotificationSuppressed(decision: decision, reason: "preference"), in: .notifications)
        try readsBack(NotificationDeferred(decision: decision, until: "2026-12-09T07:00:00.250Z", reason: "quiet-hours", notice: Self.notice),
                      in: .notifications)
    }

    @Test func everyPushEvent() throws {
        let everything = PushRequested(pushId: Self.push, app: "offleash",
                                       audience: PushAudience(topics: ["news", "walks"]),
                                       message: PushMessage(title: "Walk confirmed ✓", body: "Tab\there", screen: "booking", id: "b1",
                                                            imageUrl: "https://example.org/i.png", sound: "default", badge: 99_999),
                                       collapseId: "walk-1", expiresAt: "2026-12-09T10:00:00Z", priority: "normal",
                                       schedule: PushSchedule(localTime: "2026-12-09T09:00:00"),
                                       requestedBy: "system:notifier", triggeredAt: "2026-12-09T08:00:00.125Z", background: true)
        try readsBack(everything, in: .push)
        try readsBack(PushRequested(pushId: Self.push, app: "offleash", audience: PushAudience(personIds: ["00000000-0000-4000-8000-000000000001"]),
                                    message: PushMessage(title: "t", body: "b"), requestedBy: "key:k"), in: .push)
        for audience in [PushAudience(deviceIds: [Self.device]), PushAudience(cells: ["9q8yy"]), PushAudience(everyone: true)] {
            try readsBack(PushRequested(pushId: Self.push, app: "offleash", audience: audience, message: PushMessage(title: "t", body: "b"),
                                        requestedBy: "key:k"), in: .push)
        }
        try readsBack(PushDispatched(pushId: Self.push, deviceIds: [Self.device, "dev_" + String(repeating: "b", count: 32)]), in: .push)
        try readsBack(PushDelivered(pushId: Self.push, deviceId: Self.device, provider: "apns", providerId: "A0C7AD73-8CD9-4316-A1D8-1261C67CC17B"), in: .push)
        try readsBack(PushDelivered(pushId: Self.push, deviceId: Self.device, provider: "fcm", providerId: nil), in: .push)
        try readsBack(PushFailed(pushId: Self.push, deviceId: Self.device, provider: "apns", reason: "BadDeviceToken", status: 400, attempts: 3), in: .push)
        try readsBack(PushCompleted(pushId: Self.push, targeted: Int.max), in: .push)
    }
}
