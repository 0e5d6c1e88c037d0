public import MusterEvents
public import MusterLog
import MusterPlatform

/// Every PoP install's progress, and which person each is linked to. In memory: one entry per
/// install, a few kilobytes each (a deck is 100 cards).
public enum PoPProjection: Projection {
    public struct Install: Codable, Sendable, Equatable {
        public var progress = LearnerProgress()
        public var personId: String?
        /// Where each card and bookmark last changed (log sequence): what a pull since a cursor returns.
        public var cardChanged: [LearnerProgress.CardKey: UInt64] = [:]
        public var bookmarkChanged: [String: UInt64] = [:]
        /// When the install last linked or unlinked: its whole view changed then.
        public var viewChanged: UInt64 = 0
    }

    public struct State: Codable, Sendable, Equatable {
        public var installs: [String: Install] = [:]
        /// personId → their linked installs.
        public var people: [String: Set<String>] = [:]
    }

    public static let name = "pop"
    public static let version = 1
    public static let filterSubjects = ["events.pop.>", "events.platform.person.*.forgotten.v1"]
    public static let initialState = State()

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let synced as ProgressSynced:
            // Taken out while it changes, so its progress is not copied on every event.
            var install = state.installs.removeValue(forKey: synced.installId) ?? Install()
            for record in synced.changes {
                guard let change = record.change else { continue } // validated before the append; never nil here
                install.progress.apply(change, from: synced.installId)
                switch change {
                case .card(let card): install.cardChanged[.init(deck: card.deck, questionId: card.questionId)] = event.sequence
                case .bookmarkAdded(let add): install.bookmarkChanged[add.bookmarkId] = event.sequence
                case .bookmarksRemoved(let remove): for id in remove.bookmarkIds { install.bookmarkChanged[id] = event.sequence }
                }
            }
            state.installs[synced.installId] = install
        case let linked as InstallLinked:
            unlink(linked.installId, at: event.sequence, in: &state)
            state.installs[linked.installId, default: Install()].personId = linked.personId
            state.installs[linked.installId]?.viewChanged = event.sequence
            state.people[linked.personId, default: []].insert(linked.installId)
            // The person's other installs now see this one's progress too.
            for other in state.people[linked.personId] ?? [] { state.installs[other]?.viewChanged = event.sequence }
        case let unlinked as InstallUnlinked:
            unlink(unlinked.installId, at: event.sequence, in: &state)
        case let forgotten as PersonForgotten:
            for installId in state.people[forgotten.personId] ?? [] { unlink(installId, at: event.sequence, in: &state) }
        default:
            return
        }
    }

    static func unlink(_ installId: String, at sequence: UInt64, in state: inout State) {
        guard let personId = state.installs[installId]?.personId else { return }
        state.installs[installId]?.personId = nil
        state.installs[installId]?.viewChanged = sequence
        state.people[personId]?.remove(installId)
        for other in state.people[personId] ?? [] { state.installs[other]?.viewChanged = sequence }
        if state.people[personId]?.isEmpty == true { state.people[personId] = nil }
    }
}

extension PoPProjection.State {
    /// What an install sees: its own progress, or, linked, the join of its person's installs; with
    /// where each card and bookmark last changed, and when the view as a whole last changed.
    public func view(of installId: String) -> (progress: LearnerProgress, cards: [LearnerProgress.CardKey: UInt64],
                                               bookmarks: [String: UInt64], reset: UInt64)? {
        guard let install = installs[installId] else { return nil }
        let members = install.personId.flatMap { people[$0] } ?? [installId]
        var progress = LearnerProgress(), cards: [LearnerProgress.CardKey: UInt64] = [:], bookmarks: [String: UInt64] = [:]
        for member in members.sorted() {
            guard let other = installs[member] else { continue }
            progress = progress.merged(with: other.progress)
            cards.merge(other.cardChanged, uniquingKeysWith: max)
            bookmarks.merge(other.bookmarkChanged, uniquingKeysWith: max)
        }
        return (progress, cards, bookmarks, install.viewChanged)
    }
}
