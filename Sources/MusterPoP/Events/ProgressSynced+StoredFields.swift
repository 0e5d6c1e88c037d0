import MusterEvents
package import MusterJSON

// Synced batches are PoP's bulk of the log, and the sync and civics folds read every one: they
// are read from and written to the stored form by hand. CodecAgreementTests holds them equal to
// the Codable conformance (and the bytes to Foundation's) on random payloads.

extension ProgressSynced: StoredFieldsDecodable {
    // Members are read in their stored (sorted) order: each lookup then compares one key.
    package init(storedFields fields: JSONFields) throws {
        let changes = try fields.required(fields.objects("changes", ProgressRecord.init(storedFields:)), "changes")
        self.init(installId: try fields.required(fields.string("installId"), "installId"),
                  org: try fields.required(fields.string("org"), "org"), changes: changes)
    }
}

extension ProgressSynced: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.objects("changes", changes) { try $1.encodeMembers(&$0) }
        try object.string("installId", installId)
        try object.string("org", org)
    }
}

extension ProgressRecord {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        if let bookmark {
            try object.object("bookmark") { b in
                try b.string("bookmarkId", bookmark.bookmarkId)
                try b.string("createdAt", bookmark.createdAt)
                try b.string("documentId", bookmark.documentId)
                try b.string("sectionId", bookmark.sectionId)
            }
        }
        if let card {
            try object.object("card") { c in
                try c.string("changedAt", card.changedAt)
                try c.string("deck", card.deck)
                try c.bool("isMarkedKnown", card.isMarkedKnown)
                try c.string("lastViewed", card.lastViewed)
                try c.int("questionId", card.questionId)
                try c.int("timesViewed", card.timesViewed)
            }
        }
        try object.string("mutationId", mutationId)
        if let unbookmark { try object.encode("unbookmark", unbookmark) }
    }

    init(storedFields fields: JSONFields) throws {
        let bookmark = try fields.object("bookmark").map { bookmark in
            let (bookmarkId, createdAt) = (try bookmark.required(bookmark.string("bookmarkId"), "bookmarkId"),
                                           try bookmark.required(bookmark.string("createdAt"), "createdAt"))
            return Bookmark(bookmarkId: bookmarkId, documentId: try bookmark.required(bookmark.string("documentId"), "documentId"),
                            sectionId: try bookmark.string("sectionId"), createdAt: createdAt)
        }
        let card = try fields.object("card").map { card in
            let (changedAt, deck) = (try card.required(card.string("changedAt"), "changedAt"), try card.required(card.string("deck"), "deck"))
            let (isMarkedKnown, lastViewed) = (try card.required(card.bool("isMarkedKnown"), "isMarkedKnown"), try card.string("lastViewed"))
            return Card(deck: deck, questionId: try card.required(card.int("questionId"), "questionId"),
                        timesViewed: try card.required(card.int("timesViewed"), "timesViewed"),
                        lastViewed: lastViewed, isMarkedKnown: isMarkedKnown, changedAt: changedAt)
        }
        let mutationId = try fields.required(fields.string("mutationId"), "mutationId")
        self.init(mutationId: mutationId, card: card, bookmark: bookmark,
                  unbookmark: try fields.object("unbookmark").map { Unbookmark(bookmarkIds: try $0.decode([String].self, "bookmarkIds")) })
    }
}

extension ProgressChange.CardChange {
    /// A stored record's `card` object as the folds merge it, with its times as milliseconds; nil
    /// for a card whose `changedAt` is no timestamp (as `ProgressRecord.change` leaves it out;
    /// validation at append refused those).
    init?(storedCard card: JSONFields) throws {
        let changedAt = try card.required(card.withString("changedAt", Timestamp.millis(utf8:)), "changedAt")
        let deck = try card.required(card.string("deck"), "deck")
        let isMarkedKnown = try card.required(card.bool("isMarkedKnown"), "isMarkedKnown")
        let lastViewed = try card.withString("lastViewed", Timestamp.millis(utf8:)) ?? nil
        let questionId = try card.required(card.int("questionId"), "questionId")
        let timesViewed = try card.required(card.int("timesViewed"), "timesViewed")
        guard let changedAt else { return nil }
        self.init(deck: deck, questionId: questionId, timesViewed: timesViewed, lastViewed: lastViewed,
                  isMarkedKnown: isMarkedKnown, changedAt: changedAt)
    }
}
