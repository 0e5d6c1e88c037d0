import Foundation
@testable import MusterEvents
import MusterJSON
import MusterNotifications
import Testing

/// The notifications fold's snapshot is written member by member
/// (`NotificationsProjection+Snapshot`): the bytes must be the ones its `Codable` conformance
/// writes, in key order and in the order members come (the snapshot's own encoder), since
/// loading decodes them through it.
@Suite("The notifications snapshot, written by hand, as its conformance writes it")
struct NotificationsSnapshotTests {
    /// Writes the state through `Codable` (nested, so the hand-written members are not used).
    struct ThroughCodable: Encodable {
        var state: NotificationsProjection.State
    }

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
        for sorted in [true, false] {
            var encoder = JSONBytesEncoder()
            encoder.sortedKeys = sorted
            let byHand = try encoder.encodeObject { try $0.object("state") { try state.encodeMembers(&$0) } }
            let codable = try encoder.encode(ThroughCodable(state: state))
            #expect(String(decoding: byHand, as: UTF8.self) == String(decoding: codable, as: UTF8.self), "sorted keys: \(sorted)")
        }
        #expect(try JSONBytesDecoder().decode(NotificationsProjection.State.self, from: JSONBytesEncoder().encode(state)) == state)
    }
}
