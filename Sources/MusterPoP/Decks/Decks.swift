import Foundation
import MusterJSON

/// PoP's flashcard decks, read from a folder of JSON files (`MUSTER_POP_DECKS`, default
/// `deploy/pop/decks`): `{deck, title, questions: [{id, question?, answer?, category}]}`. A new
/// state's deck is a new file. Changes naming a deck or question that is not there are refused.
package struct Decks: Sendable {
    package struct Question: Codable, Sendable, Equatable {
        package var id: Int
        package var question: String?
        package var answer: String?
        package var category: String?
    }

    package struct Deck: Codable, Sendable, Equatable {
        package var deck: String
        package var title: String
        package var questions: [Question]
    }

    package let decks: [String: Deck]

    package init(_ decks: [Deck]) {
        self.decks = Dictionary(decks.map { ($0.deck, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every `*.json` deck in `folder`; none when the folder does not exist.
    package init(folder: String) throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var decks: [Deck] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(file))
            decks.append(try JSONBytesDecoder().decode(Deck.self, from: Array(bytes)))
        }
        self.init(decks)
    }

    package func contains(deck: String, questionId: Int) -> Bool {
        decks[deck]?.questions.contains { $0.id == questionId } ?? false
    }
}
