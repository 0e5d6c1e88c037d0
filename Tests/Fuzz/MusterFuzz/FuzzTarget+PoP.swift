import MusterEvents
import MusterJSON
@testable import MusterPoP

extension FuzzTarget {
    static let popDecks = Decks([Decks.Deck(deck: "us-civics", title: "US", questions: (1...100).map { Decks.Question(id: $0) })])

    /// PoP's sync batch: the body, each change's check and clock correction, and the merge of what
    /// passes (applying a change twice must give what applying it once gives).
    static func pop(_ bytes: [UInt8]) {
        // The same bytes as an unsubscribe token (a query parameter anyone can send): the shape
        // check never traps, and a token it takes is a UUID, a dot and 64 lowercase hex digits.
        let token = String(decoding: bytes.prefix(256), as: UTF8.self)
        if Newsletter.isTokenShaped(token) { require(token.utf8.count == 101, "a token-shaped string is 101 bytes") }
        // And as a signup body: it decodes or is refused, never traps.
        _ = try? JSONBytesDecoder().decode(SignupRequest.self, from: bytes)
        guard let request = try? JSONBytesDecoder().decode(ChangesRequest.self, from: bytes),
              let clock = EventClock(sentAt: request.sentAt, receivedMillis: 1_795_000_000_000) else { return }
        var once = LearnerProgress(), twice = LearnerProgress(), records: [ProgressRecord] = []
        for (i, record) in request.changes.prefix(ProgressSynced.maxChanges).enumerated() {
            guard case .success(let kept) = CivicsSync.corrected(record, clock: clock, decks: popDecks, studied: ["us-civics"], field: "changes.\(i)") else { continue }
            guard let change = kept.change else { return require(false, "an accepted change converts") }
            once.apply(change, from: "fuzz")
            twice.apply(change, from: "fuzz")
            twice.apply(change, from: "fuzz")
            records.append(kept)
        }
        require(once == twice, "a change applied twice merges as once")
        // StoredExactly: the batch as appended is what the log's copy decodes back to.
        guard !records.isEmpty else { return }
        let synced = ProgressSynced(installId: "6a6a6a6a-0000-4000-8000-000000000001", org: "pop-sd", changes: records)
        let subject = ProgressSynced.eventType.subject(aggregateID: synced.installId)
        let stored = try? EventEnvelope(source: "fuzz", data: synced).encodeStored()
        let decoded = stored.flatMap { try? EventCatalog.pop.decode(subject: subject, sequence: 1, payload: $0) }
        require(decoded?.payload as? ProgressSynced == synced, "a synced batch reads back from its stored text as appended")
    }
}
