import MusterEvents

/// One change as the log keeps it: the device's mutation id and exactly one of a card's record, a
/// bookmark added, or bookmarks removed. Times are on the server's clock (corrected on arrival).
package struct ProgressRecord: Codable, Sendable, Equatable {
    package struct Card: Codable, Sendable, Equatable {
        package var deck: String
        package var questionId: Int
        package var timesViewed: Int
        package var lastViewed: String?
        package var isMarkedKnown: Bool
        package var changedAt: String

        package init(deck: String, questionId: Int, timesViewed: Int, lastViewed: String?, isMarkedKnown: Bool, changedAt: String) {
            self.deck = deck
            self.questionId = questionId
            self.timesViewed = timesViewed
            self.lastViewed = lastViewed
            self.isMarkedKnown = isMarkedKnown
            self.changedAt = changedAt
        }
    }

    package struct Bookmark: Codable, Sendable, Equatable {
        package var bookmarkId: String
        package var documentId: String
        package var sectionId: String?
        package var createdAt: String

        package init(bookmarkId: String, documentId: String, sectionId: String?, createdAt: String) {
            self.bookmarkId = bookmarkId
            self.documentId = documentId
            self.sectionId = sectionId
            self.createdAt = createdAt
        }
    }

    package struct Unbookmark: Codable, Sendable, Equatable {
        package var bookmarkIds: [String]

        package init(bookmarkIds: [String]) { self.bookmarkIds = bookmarkIds }
    }

    package var mutationId: String
    package var card: Card?
    package var bookmark: Bookmark?
    package var unbookmark: Unbookmark?

    package init(mutationId: String, card: Card? = nil, bookmark: Bookmark? = nil, unbookmark: Unbookmark? = nil) {
        self.mutationId = mutationId
        self.card = card
        self.bookmark = bookmark
        self.unbookmark = unbookmark
    }

    package static let maxQuestionId = 10_000
    package static let maxViews = 1_000_000

    /// Checks the record; a failure names its field under `path` (built only then: a batch of 500
    /// valid records allocates no error paths).
    package func validate(within path: @autoclosure () -> String) throws {
        do { try check() } catch var error as EventValidationError {
            error.field = path() + error.field
            throw error
        }
    }

    private func check() throws {
        try Validate.uuid(mutationId, field: "/mutationId")
        guard (card == nil ? 0 : 1) + (bookmark == nil ? 0 : 1) + (unbookmark == nil ? 0 : 1) == 1 else {
            throw EventValidationError(field: "", "must have exactly one of card, bookmark, unbookmark")
        }
        if let card {
            try Validate.length(card.deck, 1...40, field: "/card/deck")
            guard card.deck.utf8.allSatisfy(Validate.CharacterClass.lowerAlphanumericDash.contains) else {
                throw EventValidationError(field: "/card/deck", "must be lowercase letters, digits and dashes")
            }
            guard (1...Self.maxQuestionId).contains(card.questionId) else {
                throw EventValidationError(field: "/card/questionId", "must be 1 to \(Self.maxQuestionId)")
            }
            guard (0...Self.maxViews).contains(card.timesViewed) else {
                throw EventValidationError(field: "/card/timesViewed", "must be 0 to \(Self.maxViews)")
            }
            if let lastViewed = card.lastViewed { try Validate.timestamp(lastViewed, field: "/card/lastViewed") }
            try Validate.timestamp(card.changedAt, field: "/card/changedAt")
        }
        if let bookmark {
            try Validate.uuid(bookmark.bookmarkId, field: "/bookmark/bookmarkId")
            try Validate.length(bookmark.documentId, 1...100, field: "/bookmark/documentId")
            if let section = bookmark.sectionId { try Validate.length(section, 1...100, field: "/bookmark/sectionId") }
            try Validate.timestamp(bookmark.createdAt, field: "/bookmark/createdAt")
        }
        if let unbookmark {
            try Validate.count(unbookmark.bookmarkIds, 1...100, field: "/unbookmark/bookmarkIds")
            for (i, id) in unbookmark.bookmarkIds.enumerated() { try Validate.uuid(id, field: "/unbookmark/bookmarkIds/\(i)") }
        }
    }

    /// The change to merge; nil only for a record `validate` refuses.
    package var change: ProgressChange? {
        if let card, let changedAt = Timestamp.millis(card.changedAt) {
            return .card(.init(deck: card.deck, questionId: card.questionId, timesViewed: card.timesViewed,
                               lastViewed: card.lastViewed.flatMap { Timestamp.millis($0) }, isMarkedKnown: card.isMarkedKnown, changedAt: changedAt))
        }
        if let bookmark, let createdAt = Timestamp.millis(bookmark.createdAt) {
            return .bookmarkAdded(.init(bookmarkId: bookmark.bookmarkId, documentId: bookmark.documentId, sectionId: bookmark.sectionId,
                                        createdAt: createdAt))
        }
        if let unbookmark { return .bookmarksRemoved(.init(bookmarkIds: unbookmark.bookmarkIds)) }
        return nil
    }
}
