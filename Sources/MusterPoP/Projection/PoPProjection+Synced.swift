import MusterEvents
package import MusterJSON

extension PoPProjection {
    /// What the sync fold takes of a synced batch: the install and its changes, read from the
    /// stored `data` object by hand (members in their stored, sorted order) with no mutation ids
    /// and no timestamp strings made. A record becomes the change `ProgressRecord.change` makes of it.
    package struct Synced: Sendable, Equatable {
        package var installId: String
        package var changes: [ProgressChange]

        init(_ synced: ProgressSynced) {
            installId = synced.installId
            changes = synced.changes.compactMap(\.change)
        }

        package init(storedData data: JSONFields) throws {
            changes = try data.required(data.objects("changes", Self.change), "changes").compactMap { $0 }
            installId = try data.required(data.string("installId"), "installId")
        }

        /// As `ProgressRecord.change`: a card with a good `changedAt`, else a bookmark with a good
        /// `createdAt`, else an unbookmark, else nothing (validation at append refused the rest).
        private static func change(_ record: JSONFields) throws -> ProgressChange? {
            let bookmark = try record.object("bookmark").map(Self.bookmark)
            if let card = try record.object("card").flatMap(ProgressChange.CardChange.init(storedCard:)) { return .card(card) }
            if let bookmark = bookmark ?? nil { return .bookmarkAdded(bookmark) }
            return try record.object("unbookmark").map { .bookmarksRemoved(.init(bookmarkIds: try $0.decode([String].self, "bookmarkIds"))) }
        }

        private static func bookmark(_ bookmark: JSONFields) throws -> ProgressChange.BookmarkAdd? {
            let bookmarkId = try bookmark.required(bookmark.string("bookmarkId"), "bookmarkId")
            let createdAt = try bookmark.required(bookmark.withString("createdAt", Timestamp.millis(utf8:)), "createdAt")
            let documentId = try bookmark.required(bookmark.string("documentId"), "documentId")
            let sectionId = try bookmark.string("sectionId")
            guard let createdAt else { return nil }
            return .init(bookmarkId: bookmarkId, documentId: documentId, sectionId: sectionId, createdAt: createdAt)
        }
    }
}
