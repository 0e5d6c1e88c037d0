package import MusterEvents
import MusterLog
import MusterPlatform

/// Each organisation's civic calendar and the bills it follows, and who follows what: what the
/// app's calendar and bills screens read, and whom reminders and alerts go to.
package enum CalendarProjection: Projection {
    package struct Event: Codable, Sendable, Equatable {
        package var published: CivicEventPublished
        /// The start before the last change, when it moved (its followers hear of the move).
        package var previousStart: String?
        package var sequence: UInt64
    }

    package struct Bill: Codable, Sendable, Equatable {
        package var tracked: BillTracked
        /// The status before the last change, if it changed.
        package var previousStatus: String?
        package var sequence: UInt64
    }

    /// A device without an account (`device:dev_…`) or a learner (`person:<uuid>`).
    package struct Follower: Codable, Sendable, Hashable, Comparable {
        package var deviceId: String?
        package var personId: String?
        package var key: String { personId.map { "person:\($0)" } ?? "device:\(deviceId ?? "")" }
        package static func < (a: Self, b: Self) -> Bool { a.key < b.key }
    }

    package struct State: Codable, Sendable, Equatable {
        package var events: [String: Event] = [:]
        package var bills: [String: Bill] = [:]
        /// By event id or bill id.
        package var followers: [String: Set<Follower>] = [:]
        /// Each organisation's last calendar or bill change: its lists' ETag.
        package var revision: [String: UInt64] = [:]

        package func events(of org: String) -> [Event] {
            events.values.filter { $0.published.org == org }.sorted { ($0.published.start, $0.published.eventId) < ($1.published.start, $1.published.eventId) }
        }

        package func bills(of org: String) -> [Bill] {
            bills.values.filter { $0.tracked.org == org }.sorted { $0.tracked.number < $1.tracked.number }
        }
    }

    package static let name = "calendar"
    package static let version = 1
    package static let filterSubjects = ["events.pop.calendar.>", "events.pop.bill.>", "events.pop.follow.>",
                                         PersonForgotten.eventType.familyFilter]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let published as CivicEventPublished:
            if let known = state.events[published.eventId], known.published.org != published.org {
                throw ProjectionRejection("event \(published.eventId) belongs to another organisation")
            }
            let before = state.events[published.eventId]?.published.start
            state.events[published.eventId] = Event(published: published, previousStart: before != published.start ? before : nil,
                                                    sequence: event.sequence)
            state.revision[published.org] = event.sequence
        case let tracked as BillTracked:
            let before = state.bills[tracked.billId]?.tracked.status
            state.bills[tracked.billId] = Bill(tracked: tracked, previousStatus: before != tracked.status ? before : nil, sequence: event.sequence)
            state.revision[tracked.org] = event.sequence
        case let follow as FollowChanged:
            let follower = Follower(deviceId: follow.deviceId, personId: follow.personId)
            if follow.following { state.followers[follow.id, default: []].insert(follower) } else { state.followers[follow.id]?.remove(follower) }
        case let forgotten as PersonForgotten:
            for id in Array(state.followers.keys) { state.followers[id]?.remove(Follower(deviceId: nil, personId: forgotten.personId)) }
        default:
            return
        }
    }
}
