package import MusterJSON

// The civics fold's snapshot is written every few seconds under sync load, and grows with the
// installs: each install's cards are written member by member here, as their `Codable`
// conformances write them (CivicsSnapshotTests holds the bytes equal). The per-question and
// per-day counts, bounded by the decks and the days kept, go through `Codable`.

extension CivicsProjection.State: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.encode("active", active)
        try object.object("installs") { object in
            for (installId, install) in installs { try object.object(installId) { try install.encodeMembers(&$0) } }
        }
        try object.encode("questions", questions)
    }
}

extension CivicsProjection.Install {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        // A dictionary keyed by a struct is an array of its keys and values in turn, in its own order.
        let cards = Array(self.cards)
        try object.objects("cards", 0..<(cards.count * 2)) { object, index in
            let (key, card) = cards[index / 2]
            if index % 2 == 0 {
                try object.string("deck", key.deck)
                try object.int("questionId", key.questionId)
            } else {
                try object.bool("known", card.known)
                try object.int("stamp", Int(card.stamp))
                try object.int("views", card.views)
            }
        }
        try object.encode("days", days)
        try object.object("known") { object in
            for (deck, count) in known { try object.int(deck, count) }
        }
        try object.string("org", org)
    }
}
