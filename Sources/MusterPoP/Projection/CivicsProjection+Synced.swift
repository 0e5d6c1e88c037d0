package import MusterJSON

extension CivicsProjection {
    /// What the fold takes of a synced batch: the install, its organisation, and its cards'
    /// changes (bookmarks count for nothing here).
    package struct Synced: Sendable, Equatable {
        package var installId: String
        package var org: String
        package var cards: [ProgressChange.CardChange]

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
        package init(storedData data: JSONFields) throws {
            let records = try data.required(data.objects("changes") { try $0.object("card").flatMap(ProgressChange.CardChange.init(storedCard:)) },
                                            "changes")
            cards = records.compactMap { $0 }
            installId = try data.required(data.string("installId"), "installId")
            org = try data.required(data.string("org"), "org")
        }
    }
}
