package import MusterEvents
import MusterLog
import MusterPlatform

/// What the notifiers work from: each person's preferences per app, and the messages waiting to
/// be decided (scheduled, gathering, or deferred on one channel), with the channels already
/// decided. A message leaves when every channel it waits on has its decision.
package enum NotificationsProjection: Projection {
    package struct Preferences: Codable, Sendable, Equatable {
        package var categories: [String: [String]] = [:]
        package var quietHours: QuietHours?
    }

    package struct Pending: Codable, Sendable, Equatable {
        package var key: String
        /// The sequence of the event it waits from: the version its decisions name.
        package var version: UInt64
        package var notice: Notice
        package var dueAt: Int64
        package var channels: [String]
        package var decided: [String] = []
        /// When the first of a gathering's notices came (the wait is capped from there).
        package var firstAt: Int64
        package var reason: String

        package var undecided: [NotificationChannel] {
            channels.filter { !decided.contains($0) }.compactMap(NotificationChannel.init(rawValue:))
        }
    }

    package struct State: Codable, Sendable, Equatable {
        /// By `app personId`.
        package var preferences: [String: Preferences] = [:]
        /// By key (scheduled) or `key|channel` (deferred on one channel).
        package var pending: [String: Pending] = [:]

        package static func preferencesID(app: String, personId: String) -> String { "\(app) \(personId)" }

        package func preferences(app: String, personId: String) -> Preferences? {
            preferences[Self.preferencesID(app: app, personId: personId)]
        }

        /// Every pending message due by `now` (milliseconds), oldest first.
        package func due(by now: Int64) -> [Pending] {
            pending.values.filter { $0.dueAt <= now }.sorted { ($0.dueAt, $0.version) < ($1.dueAt, $1.version) }
        }

        /// The earliest due time among pending messages.
        package var nextDue: Int64? { pending.values.map(\.dueAt).min() }
    }

    package static let name = "notifications"
    package static let version = 1
    package static let filterSubjects = ["events.platform.notification.>", "events.platform.preferences.>",
                                         PersonForgotten.eventType.familyFilter]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        let time = Timestamp.millis(event.time) ?? 0
        switch event.payload {
        case let scheduled as NotificationScheduled:
            let firstAt = state.pending[scheduled.key]?.firstAt ?? time
            dropDeferrals(of: scheduled.key, in: &state)
            state.pending[scheduled.key] = Pending(key: scheduled.key, version: event.sequence, notice: scheduled.notice,
                                                   dueAt: Timestamp.millis(scheduled.dueAt) ?? time, channels: scheduled.channels,
                                                   firstAt: firstAt, reason: scheduled.reason)
        case let cancelled as NotificationCancelled:
            state.pending[cancelled.key] = nil
            dropDeferrals(of: cancelled.key, in: &state)
        case let sent as NotificationSent:
            decided(sent.decision, in: &state)
        case let suppressed as NotificationSuppressed:
            decided(suppressed.decision, in: &state)
        case let deferred as NotificationDeferred:
            decided(deferred.decision, in: &state)
            let id = "\(deferred.decision.key)|\(deferred.decision.channel)"
            state.pending[id] = Pending(key: deferred.decision.key, version: event.sequence, notice: deferred.notice,
                                        dueAt: Timestamp.millis(deferred.until) ?? time, channels: [deferred.decision.channel],
                                        firstAt: time, reason: deferred.reason)
        case let set as PreferencesSet:
            state.preferences[State.preferencesID(app: set.app, personId: set.personId)] =
                Preferences(categories: set.categories, quietHours: set.quietHours)
        case let forgotten as PersonForgotten:
            state.preferences = state.preferences.filter { !$0.key.hasSuffix(" \(forgotten.personId)") }
            state.pending = state.pending.filter { $0.value.notice.personId != forgotten.personId }
        default:
            return
        }
    }

    /// Marks the decision's channel decided on the message it came from; a message with every
    /// channel decided is done.
    static func decided(_ decision: NotificationDecision, in state: inout State) {
        for id in [decision.key, "\(decision.key)|\(decision.channel)"] {
            guard var pending = state.pending[id], pending.version == decision.version else { continue }
            if !pending.decided.contains(decision.channel) { pending.decided.append(decision.channel) }
            state.pending[id] = pending.undecided.isEmpty ? nil : pending
        }
    }

    static func dropDeferrals(of key: String, in state: inout State) {
        for channel in NotificationChannel.allCases { state.pending["\(key)|\(channel.rawValue)"] = nil }
    }
}
