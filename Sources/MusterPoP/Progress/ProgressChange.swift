/// One change a device made to a learner's progress, with its times already on the server's clock
/// (`ProgressBatch` corrects them). Applying a change is a merge: applying it twice, or applying
/// changes in any order, gives the same `LearnerProgress`.
package enum ProgressChange: Codable, Sendable, Equatable {
    /// A flashcard's record as the device holds it (`FlashcardProgress` / `SDFlashcardProgress`).
    case card(CardChange)
    /// A `DocumentBookmark` the device created.
    case bookmarkAdded(BookmarkAdd)
    /// Bookmarks the device removed: exactly these adds, not ones it has not seen.
    case bookmarksRemoved(BookmarkRemove)

    package struct CardChange: Codable, Sendable, Equatable {
        package var deck: String
        package var questionId: Int
        /// The device's own running count of views of this card.
        package var timesViewed: Int
        /// Milliseconds on the server's clock.
        package var lastViewed: Int64?
        package var isMarkedKnown: Bool
        /// When the device changed the record (server's clock): orders `isMarkedKnown`.
        package var changedAt: Int64

        package init(deck: String, questionId: Int, timesViewed: Int, lastViewed: Int64?, isMarkedKnown: Bool, changedAt: Int64) {
            self.deck = deck
            self.questionId = questionId
            self.timesViewed = timesViewed
            self.lastViewed = lastViewed
            self.isMarkedKnown = isMarkedKnown
            self.changedAt = changedAt
        }
    }

    package struct BookmarkAdd: Codable, Sendable, Equatable {
        /// The app's `DocumentBookmark.id`: one add, never reused.
        package var bookmarkId: String
        package var documentId: String
        package var sectionId: String?
        package var createdAt: Int64

        package init(bookmarkId: String, documentId: String, sectionId: String?, createdAt: Int64) {
            self.bookmarkId = bookmarkId
            self.documentId = documentId
            self.sectionId = sectionId
            self.createdAt = createdAt
        }
    }

    package struct BookmarkRemove: Codable, Sendable, Equatable {
        package var bookmarkIds: [String]

        package init(bookmarkIds: [String]) { self.bookmarkIds = bookmarkIds }
    }
}
