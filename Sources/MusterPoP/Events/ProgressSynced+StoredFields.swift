public import MusterEvents
public import MusterJSON

// Synced batches are PoP's bulk of the log, and the sync and civics folds read every one: they
// are read from the stored form by hand. CodecAgreementTests holds them equal to the Decodable
// conformance on random payloads.

extension ProgressSynced: StoredFieldsDecodable {
    public init(storedFields fields: JSONFields) throws {
        self.init(installId: try fields.required(fields.string("installId"), "installId"),
                  org: try fields.required(fields.string("org"), "org"),
                  changes: try fields.required(fields.objects("changes", ProgressRecord.init(storedFields:)), "changes"))
    }
}

extension ProgressRecord {
    init(storedFields fields: JSONFields) throws {
        self.init(mutationId: try fields.required(fields.string("mutationId"), "mutationId"),
                  card: try fields.object("card").map { card in
                      Card(deck: try card.required(card.string("deck"), "deck"),
                           questionId: try card.required(card.int("questionId"), "questionId"),
                           timesViewed: try card.required(card.int("timesViewed"), "timesViewed"),
                           lastViewed: try card.string("lastViewed"),
                           isMarkedKnown: try card.required(card.bool("isMarkedKnown"), "isMarkedKnown"),
                           changedAt: try card.required(card.string("changedAt"), "changedAt"))
                  },
                  bookmark: try fields.object("bookmark").map { bookmark in
                      Bookmark(bookmarkId: try bookmark.required(bookmark.string("bookmarkId"), "bookmarkId"),
                               documentId: try bookmark.required(bookmark.string("documentId"), "documentId"),
                               sectionId: try bookmark.string("sectionId"),
                               createdAt: try bookmark.required(bookmark.string("createdAt"), "createdAt"))
                  },
                  unbookmark: try fields.object("unbookmark").map { Unbookmark(bookmarkIds: try $0.decode([String].self, "bookmarkIds")) })
    }
}
