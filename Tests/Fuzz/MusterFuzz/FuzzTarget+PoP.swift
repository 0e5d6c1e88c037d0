import Foundation
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
        // And as an organiser's calendar event or bill: decoded, checked as the event it becomes; a
        // bill's number is upper-cased and trimmed first, so one the check takes is in its shape.
        if let event = try? JSONBytesDecoder().decode(EventRequest.self, from: bytes) {
            _ = try? CivicEventPublished(org: "pop-sd", eventId: "5a1b2c3d-0000-4000-8000-000000000001", title: event.title, start: event.start,
                                         end: event.end, timeZone: event.timeZone, place: event.place, url: event.url, latitude: event.latitude,
                                         longitude: event.longitude, cancelled: event.cancelled).validate()
        }
        if let bill = try? JSONBytesDecoder().decode(BillRequest.self, from: bytes) {
            let number = bill.number.uppercased().trimmingCharacters(in: .whitespaces)
            let tracked = BillTracked(org: "pop-sd", billId: CivicCalendar.billID(org: "pop-sd", number: number), number: number, title: bill.title,
                                      status: bill.status, nextHearing: bill.nextHearing, url: bill.url)
            if (try? tracked.validate()) != nil { require(number == number.uppercased(), "a bill number the check takes is upper-case") }
        }
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
