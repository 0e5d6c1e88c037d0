package import MusterEvents
import MusterLog

/// Every push: what was asked, which devices have their outcome, and the counts by outcome. While
/// a push is being sent its per-device record is what keeps a restarted notifier from sending a
/// copy twice; once it completes only the counts are kept.
package enum PushesProjection: Projection {
    package struct Push: Codable, Sendable, Equatable {
        package var request: PushRequested
        package var requestedAt: String
        /// Devices handed to a provider, with or without an outcome yet, and when (cleared on completion).
        package var dispatched: [String: String] = [:]
        /// Devices with an outcome (cleared on completion).
        package var handled: Set<String> = []
        package var delivered = 0
        package var failed = 0
        /// Failure reasons and how often each came.
        package var reasons: [String: Int] = [:]
        package var targeted: Int?
        package var completedAt: String?
        /// The stream sequence of the push's last event: a dispatch is appended expecting it, so
        /// two notifiers never hand the same devices over (the loser reads again and takes others).
        package var sequence: UInt64
        /// The request's trace (its event's `traceparent`): sending the push continues it.
        package var traceparent: String?

        package var status: String {
            if completedAt != nil { return "completed" }
            return dispatched.isEmpty && handled.isEmpty && request.schedule != nil ? "scheduled" : "sending"
        }
    }

    package struct State: Codable, Sendable, Equatable {
        package var pushes: [String: Push] = [:]
        /// Pushes not completed yet: what the notifier works through.
        package var open: Set<String> = []
        /// When each device last had a silent push delivered (milliseconds), for the spacing Apple
        /// advises; entries older than an hour are dropped as new ones come.
        package var lastBackground: [String: Int64] = [:]
    }

    package static let name = "pushes"
    package static let version = 2
    package static let filterSubjects = ["events.push.send.>"]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let requested as PushRequested:
            guard state.pushes[requested.pushId] == nil else { throw ProjectionRejection("push \(requested.pushId) requested twice") }
            state.pushes[requested.pushId] = Push(request: requested, requestedAt: event.time, sequence: event.sequence,
                                                  traceparent: event.traceparent)
            state.open.insert(requested.pushId)
        case let dispatched as PushDispatched:
            update(dispatched.pushId, at: event.sequence, in: &state) { push in
                for id in dispatched.deviceIds where push.dispatched[id] == nil { push.dispatched[id] = event.time }
            }
        case let delivered as PushDelivered:
            update(delivered.pushId, at: event.sequence, in: &state) { push in
                if push.completedAt == nil, push.handled.insert(delivered.deviceId).inserted { push.delivered += 1 }
            }
            if state.pushes[delivered.pushId]?.request.background == true, let time = Timestamp.millis(event.time) {
                if state.lastBackground.count > 10_000 { state.lastBackground = state.lastBackground.filter { $0.value > time - 3_600_000 } }
                state.lastBackground[delivered.deviceId] = time
            }
        case let failed as PushFailed:
            update(failed.pushId, at: event.sequence, in: &state) { push in
                if push.completedAt == nil, push.handled.insert(failed.deviceId).inserted {
                    push.failed += 1
                    push.reasons[failed.reason, default: 0] += 1
                }
            }
        case let completed as PushCompleted:
            update(completed.pushId, at: event.sequence, in: &state) { push in
                push.targeted = completed.targeted
                push.completedAt = event.time
                push.dispatched = [:]
                push.handled = []
            }
            state.open.remove(completed.pushId)
        default:
            return
        }
    }

    /// Changes a push in place: taken out of the dictionary first, so its sets are not copied
    /// on every event (a push to 100k devices would otherwise copy 100k entries per outcome).
    static func update(_ pushId: String, at sequence: UInt64, in state: inout State, _ change: (inout Push) -> Void) {
        guard var push = state.pushes.removeValue(forKey: pushId) else { return }
        change(&push)
        push.sequence = sequence
        state.pushes[pushId] = push
    }
}
