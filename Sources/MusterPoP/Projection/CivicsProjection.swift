package import MusterEvents
package import MusterLog

/// The civics-progress projection: what learners of each organisation find easy and hard, folded
/// from every install's synced flashcard records. Counts are per device (install): a device that
/// has a record of a question, views (each device's running count, so a retried or re-sent record
/// never counts twice), and how many devices mark it known (last writer by corrected time). Kept in
/// memory: per install only what the counts need (a few bytes a card), so rebuilding is one pass.
package enum CivicsProjection: Projection {
    package struct Card: Codable, Sendable, Equatable {
        package var views: Int
        package var known: Bool
        /// The corrected time of the write `known` holds.
        package var stamp: Int64
    }

    package struct Install: Codable, Sendable, Equatable {
        /// The organisation of its first batch (an install does not change organisation).
        package var org: String
        package var cards: [LearnerProgress.CardKey: Card] = [:]
        /// Questions known, per deck.
        package var known: [String: Int] = [:]
        /// Days (since 1970, UTC) it studied on, the latest `maxDays`.
        package var days: [Int] = []
    }

    package struct Question: Codable, Sendable, Equatable {
        /// Devices with a record of the question.
        package var devices = 0
        /// Devices that viewed it at least once.
        package var viewers = 0
        package var views = 0
        /// Devices that mark it known.
        package var known = 0
    }

    package struct State: Codable, Sendable, Equatable {
        package var installs: [String: Install] = [:]
        /// org → deck → question id → counts.
        package var questions: [String: [String: [Int: Question]]] = [:]
        /// org → day → devices that studied that day.
        package var active: [String: [Int: Int]] = [:]
    }

    package static let name = "civics"
    package static let version = 1
    package static let filterSubjects = [ProgressSynced.eventType.familyFilter]
    package static let initialState = State()
    package static let maxDays = 120

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        guard let synced = event.payload as? ProgressSynced else { return }
        fold(Synced(synced), into: &state)
    }

    /// Synced batches validated at append are read straight from their stored bytes (`Synced`).
    package static let storedReaders = [StoredReader<Self>(ProgressSynced.eventType, read: Synced.init(storedData:)) { synced, state in
        fold(synced, into: &state)
    }]

    static func fold(_ synced: Synced, into state: inout State) {
        let org = state.installs[synced.installId]?.org ?? synced.org
        // Each part changes where it lies in its dictionary (one lookup each, nothing copied on
        // write): taking an install out and putting it back cost a hash of every key the removal
        // shifted, a tenth of the fold.
        fold(synced.cards, install: &state.installs[synced.installId, default: Install(org: org)],
             questions: &state.questions[org, default: [:]], active: &state.active[org, default: [:]])
    }

    private static func fold(_ cards: [ProgressChange.CardChange], install: inout Install,
                             questions: inout [String: [Int: Question]], active: inout [Int: Int]) {
        for card in cards {
            let (old, new) = merge(card, into: &install.cards[LearnerProgress.CardKey(deck: card.deck, questionId: card.questionId)])
            let delta = (new.known ? 1 : 0) - ((old?.known ?? false) ? 1 : 0)
            count(&questions[card.deck, default: [:]][card.questionId, default: Question()], old: old, new: new, known: delta)
            if delta != 0 { install.known[card.deck, default: 0] += delta }
            if card.timesViewed > 0 || card.isMarkedKnown {
                studied(on: Int((card.lastViewed ?? card.changedAt) / 86_400_000), install: &install, active: &active)
            }
        }
    }

    /// The device's record of a card with `card` merged in (its running count of views, and
    /// `known` as the later write says, a tie to true), written to `slot`; what it was, and is.
    private static func merge(_ card: ProgressChange.CardChange, into slot: inout Card?) -> (old: Card?, new: Card) {
        let old = slot
        var new = old ?? Card(views: 0, known: false, stamp: .min)
        new.views = max(new.views, card.timesViewed)
        if card.changedAt > new.stamp || (card.changedAt == new.stamp && card.isMarkedKnown) {
            (new.known, new.stamp) = (card.isMarkedKnown, card.changedAt)
        }
        slot = new
        return (old, new)
    }

    /// A question's counts once one device's record of it moved from `old` to `new`.
    private static func count(_ question: inout Question, old: Card?, new: Card, known delta: Int) {
        if old == nil { question.devices += 1 }
        if (old?.views ?? 0) == 0 && new.views > 0 { question.viewers += 1 }
        question.views += new.views - (old?.views ?? 0)
        question.known += delta
    }

    /// Counts the install once for `day`. Only the latest `maxDays` days are remembered per
    /// install; a change dated before all of them (a device offline for months) is not counted.
    static func studied(on day: Int, install: inout Install, active: inout [Int: Int]) {
        guard !install.days.contains(day) else { return }
        if install.days.count >= maxDays {
            guard let oldest = install.days.first, day > oldest else { return }
            install.days.removeFirst()
        }
        let at = install.days.firstIndex { $0 > day } ?? install.days.endIndex
        install.days.insert(day, at: at)
        active[day, default: 0] += 1
    }
}
