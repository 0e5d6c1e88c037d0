import Foundation
@testable import MusterEvents
import MusterJSON
import MusterNotifications
import MusterTesting
import Testing

/// The notifications fold's snapshot is written member by member
/// (`NotificationsProjection+Snapshot`): the bytes must be the ones its `Codable` conformance
/// writes, in key order and in the order members come (the snapshot's own encoder), since
/// loading decodes them through it.
@Suite("The notifications snapshot, written by hand, as its conformance writes it")
struct NotificationsSnapshotTests {
    static func event(_ payload: any EventPayload, _ sequence: UInt64, at time: String) -> RecordedEvent {
        RecordedEvent(sequence: sequence, subject: payload.eventType.subject(aggregateID: payload.aggregateID), id: "evt_\(sequence)", source: "test",
                      time: time, actor: nil, traceparent: nil, storedType: payload.eventType, aggregateID: payload.aggregateID, payload: payload)
    }

    @Test func theBytesAreTheConformances() throws {
        var state = NotificationsProjection.initialState
        let everything = NotificationEventsReadBackTests.notice
        for n in 0..<200 {
            let notice = n % 3 == 0 ? everything
                : Notice(app: "offleash", category: "walk-reminder", deviceId: "dev_" + String(repeating: "c", count: 32),
                         about: "booking:\(n)", title: "Walk \"\(n)\" in an hour", body: "Ça commence\n")
            let scheduled = NotificationScheduled(key: "remind:\(n)", notice: notice, dueAt: "2026-12-09T10:00:\(String(format: "%02d", n % 60))Z",
                                                  channels: n % 2 == 0 ? ["push", "email"] : ["push"], reason: "reminder")
            try NotificationsProjection.apply(Self.event(scheduled, UInt64(n + 1), at: "2026-12-08T10:00:00.125Z"), to: &state)
        }
        let decision = NotificationDecision(key: "remind:0", version: 1, notice: everything, channel: .push)
        try NotificationsProjection.apply(Self.event(NotificationSent(decision: decision, pushId: nil), 201, at: "2026-12-09T10:00:01Z"), to: &state)
        try NotificationsProjection.apply(Self.event(NotificationDeferred(decision: NotificationDecision(key: "remind:2", version: 3, notice: everything, channel: .email),
                                                                          until: "2026-12-09T07:00:00.250Z", reason: "quiet-hours", notice: everything),
                                                     202, at: "2026-12-09T10:00:02Z"), to: &state)
        try NotificationsProjection.apply(Self.event(PreferencesSet(app: "offleash", personId: "00000000-0000-4000-8000-000000000001",
                                                                    categories: ["walk-reminder": ["push"]],
                                                                    quietHours: QuietHours(start: "22:00", end: "07:00", timeZone: "Europe/Paris")),
                                                     203, at: "2026-12-09T10:00:03Z"), to: &state)
        #expect(state.pending.count == 201 && state.pending.values.contains { !$0.decided.isEmpty } && !state.preferences.isEmpty)
        for (sorted, byHand, codable) in try HandWritten.bothWays(state) {
            #expect(byHand == codable, "sorted keys: \(sorted)")
        }
        #expect(try JSONBytesDecoder().decode(NotificationsProjection.State.self, from: JSONBytesEncoder().encode(state)) == state)
    }
}
