import MusterEvents
public import MusterJSON

extension CivicsProjection {
    /// What the fold takes of a synced batch: the install, its organisation, and its cards'
    /// changes (bookmarks count for nothing here).
    public struct Synced: Sendable, Equatable {
        public var installId: String
        public var org: String
        public var cards: [ProgressChange.CardChange]

        init(_ synced: ProgressSynced) {
            installId = synced.installId
            org = synced.org
            cards = synced.changes.compactMap { record in
                guard case .card(let card)? = record.change else { return nil }
                return card
            }
        }

        /// Read from a stored batch's `data` object, members in their stored (sorted) order, with
        /// no mutation ids and no timestamp strings made. Like `ProgressRecord.change`, it leaves
        /// out a card whose `changedAt` is no timestamp (validation at append refused those).
        public init(storedData data: JSONFields) throws {
            let records = try data.required(data.objects("changes") { record in try record.object("card").flatMap(Self.card) }, "changes")
            cards = records.compactMap { $0 }
            installId = try data.required(data.string("installId"), "installId")
            org = try data.required(data.string("org"), "org")
        }

        private static func card(_ card: JSONFields) throws -> ProgressChange.CardChange? {
            let changedAt = try card.required(card.withString("changedAt", Timestamp.millis(utf8:)), "changedAt")
            let deck = try card.required(card.string("deck"), "deck")
            let isMarkedKnown = try card.required(card.bool("isMarkedKnown"), "isMarkedKnown")
            let lastViewed = try card.withString("lastViewed", Timestamp.millis(utf8:)) ?? nil
            let questionId = try card.required(card.int("questionId"), "questionId")
            let timesViewed = try card.required(card.int("timesViewed"), "timesViewed")
            guard let changedAt else { return nil }
            return .init(deck: deck, questionId: questionId, timesViewed: timesViewed, lastViewed: lastViewed,
                         isMarkedKnown: isMarkedKnown, changedAt: changedAt)
        }
    }
}
