import MusterEvents
import MusterJSON
@testable import MusterField

extension FuzzTarget {
    static let fieldProject = "5a5a5a5a-0000-4000-8000-000000000001"

    /// The field app's sync batch: the body (read leniently, mutation by mutation), each mutation's
    /// check and clock correction, and the fold of what passes (a batch applied twice must leave
    /// the book as once, and its snapshot written by hand as `Codable` writes it); the same bytes
    /// as a pull cursor, an ISO week, an upload's offset header and an upload's first bytes; and as
    /// a company's settings (a time zone among them).
    static func field(_ bytes: [UInt8]) {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        if let cursor = PullCursor(text) { require(PullCursor(cursor.description) == cursor, "a cursor reads back as written") }
        if let week = ISOWeek(text) { require(ISOWeek(week.description) == week && week.end - week.start == 604_800_000, "a week is 7 days and reads back") }
        // The same bytes as an upload's headers (Upload-Offset, Upload-Length) and as its first bytes.
        if let offset = try? UploadRoutes.number(text, "Upload-Offset") { require(offset >= 0, "an offset is never negative") }
        for type in FieldUploads.limits.types { _ = FieldUploads.looksLike(type, Array(bytes.prefix(16))) }
        if let settings = try? JSONBytesDecoder().decode(CompanySettings.self, from: bytes), (try? settings.validate()) != nil,
           let week = ISOWeek("2026-W10") {
            let length = week.bounds(in: settings.zone).count
            require(abs(length - 604_800_000) <= 7_200_000, "a week in any valid zone is 7 days, give or take a clock change")
        }
        guard let request = try? JSONBytesDecoder().decode(PushRequest.self, from: bytes),
              let clock = EventClock(sentAt: request.sentAt, receivedMillis: 1_795_000_000_000) else { return }
        let kept = request.mutations.prefix(MutationsPushed.maxMutations).enumerated().compactMap { i, incoming in
            try? incoming.mutation.flatMap { FieldSync.corrected($0, clock: clock, field: "mutations.\(i)") }.get()
        }
        guard !kept.isEmpty else { return }
        let pushed = MutationsPushed(deviceId: "5c5c5c5c-0000-4000-8000-000000000002", personId: "5d5d5d5d-0000-4000-8000-000000000001",
                                     orgId: "5e5e5e5e-0000-4000-8000-000000000001", role: FieldRoles.manager, mutations: kept)
        require((try? pushed.validate()) != nil, "what passes the route's checks is a valid event")
        let stored = try? EventEnvelope(source: "fuzz", data: pushed).encodeStored()
        require(stored.flatMap { try? EventEnvelope<MutationsPushed>.decodeStored($0).data } == pushed, "the stored batch reads back by hand as written")
        var once = FieldBook()
        once.apply(pushed, sequence: 1, at: 1_795_000_000_000)
        var twice = once
        twice.apply(pushed, sequence: 2, at: 1_795_000_000_000)
        require(once == twice, "a retried batch changes nothing")
        struct ThroughCodable: Encodable { var book: FieldBook }
        let byHand = try? JSONBytesEncoder().encodeObject { try $0.object("book") { try once.encodeMembers(&$0) } }
        require(byHand != nil && byHand == (try? JSONBytesEncoder().encode(ThroughCodable(book: once))), "the snapshot by hand is the conformance's")
        let page = once.page(personId: pushed.personId, orgId: pushed.orgId, role: FieldRoles.manager, since: PullCursor(position: 0), limit: 10, checkpoint: 1)
        require(page.records.count <= kept.count, "a pull returns only what was stored")
    }
}
