/// One learner's civics progress (an install, or a person and every install linked to them),
/// merged from the changes their devices sent. Every field merges so that order and repetition do
/// not matter (each is a small CRDT), which is what lets a phone sync after days offline without
/// losing a tap or counting one twice:
/// - views: a counter per device, each the device's own running total; the merge keeps the
///   largest it has seen from each device and the card's views are their sum;
/// - `lastViewed`: the latest;
/// - `isMarkedKnown`: last writer wins, ordered by the change's corrected time, then the device id;
/// - bookmarks: a set where a remove takes away only the adds it names (the ones it had seen).
/// Pure: no I/O, tested by applying the same changes in every order.
package struct LearnerProgress: Codable, Sendable, Equatable {
    package struct CardKey: Codable, Sendable, Hashable, Comparable {
        package var deck: String
        package var questionId: Int

        package init(deck: String, questionId: Int) {
            self.deck = deck
            self.questionId = questionId
        }

        package static func < (a: CardKey, b: CardKey) -> Bool { (a.deck, a.questionId) < (b.deck, b.questionId) }
    }

    /// What orders two writes of `isMarkedKnown`: time, then device, so ties break the same way everywhere.
    package struct Stamp: Codable, Sendable, Equatable, Comparable {
        package var at: Int64
        package var device: String

        package static func < (a: Stamp, b: Stamp) -> Bool { (a.at, a.device) < (b.at, b.device) }
    }

    package struct Card: Codable, Sendable, Equatable {
        /// Each device's own running count.
        package var views: [String: Int] = [:]
        package var lastViewed: Int64?
        package var isMarkedKnown = false
        /// The write `isMarkedKnown` holds; nil until a device wrote it.
        package var knownStamp: Stamp?

        package var timesViewed: Int { views.values.reduce(0, +) }
    }

    package struct Bookmark: Codable, Sendable, Equatable {
        package var documentId: String
        package var sectionId: String?
        package var createdAt: Int64
    }

    package var cards: [CardKey: Card] = [:]
    /// Every add ever seen, by the app's bookmark id.
    package var added: [String: Bookmark] = [:]
    /// Adds a device removed (kept, so an add that arrives after its remove stays removed).
    package var removed: Set<String> = []

    package init() {}

    /// The bookmarks that are live: added and not removed.
    package var bookmarks: [String: Bookmark] { added.filter { !removed.contains($0.key) } }

    /// Merges one change from `device`.
    package mutating func apply(_ change: ProgressChange, from device: String) {
        switch change {
        case .card(let change):
            let key = CardKey(deck: change.deck, questionId: change.questionId)
            var card = cards[key] ?? Card()
            card.views[device] = max(card.views[device] ?? 0, change.timesViewed)
            if let viewed = change.lastViewed { card.lastViewed = max(card.lastViewed ?? viewed, viewed) }
            let stamp = Stamp(at: change.changedAt, device: device)
            if card.knownStamp.map({ $0 < stamp }) ?? true {
                card.knownStamp = stamp
                card.isMarkedKnown = change.isMarkedKnown
            } else if card.knownStamp == stamp {
                // One device wrote twice at the same instant: `true` wins, so the result does not depend on order.
                card.isMarkedKnown = card.isMarkedKnown || change.isMarkedKnown
            }
            cards[key] = card
        case .bookmarkAdded(let add):
            let bookmark = Bookmark(documentId: add.documentId, sectionId: add.sectionId, createdAt: add.createdAt)
            // The same id sent twice with different contents: keep the smallest, whatever the order.
            if let existing = added[add.bookmarkId], existing.isOrdered(before: bookmark) { return }
            added[add.bookmarkId] = bookmark
        case .bookmarksRemoved(let remove):
            removed.formUnion(remove.bookmarkIds)
        }
    }
}

extension LearnerProgress {
    /// The join of two learners' progress (a person's installs seen as one): the same merges as
    /// `apply`, field by field, so it is order-independent too.
    package func merged(with other: LearnerProgress) -> LearnerProgress {
        var result = self
        for (key, theirs) in other.cards {
            guard var card = result.cards[key] else {
                result.cards[key] = theirs
                continue
            }
            card.views.merge(theirs.views, uniquingKeysWith: max)
            if let viewed = theirs.lastViewed { card.lastViewed = max(card.lastViewed ?? viewed, viewed) }
            switch (card.knownStamp, theirs.knownStamp) {
            case (nil, _?): (card.knownStamp, card.isMarkedKnown) = (theirs.knownStamp, theirs.isMarkedKnown)
            case let (mine?, theirStamp?) where mine < theirStamp: (card.knownStamp, card.isMarkedKnown) = (theirStamp, theirs.isMarkedKnown)
            case let (mine?, theirStamp?) where mine == theirStamp: card.isMarkedKnown = card.isMarkedKnown || theirs.isMarkedKnown
            default: break
            }
            result.cards[key] = card
        }
        for (id, bookmark) in other.added {
            if let existing = result.added[id], existing.isOrdered(before: bookmark) { continue }
            result.added[id] = bookmark
        }
        result.removed.formUnion(other.removed)
        return result
    }
}

extension LearnerProgress.Bookmark {
    func isOrdered(before other: Self) -> Bool {
        (documentId, sectionId ?? "", createdAt) <= (other.documentId, other.sectionId ?? "", other.createdAt)
    }
}
