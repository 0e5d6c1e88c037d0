import MusterEvents
import MusterJSON

/// `POST /api/pop/installs/{installId}/changes`: what the app made offline, with the device's own
/// clock (`sentAt` is when it sent the batch; each change's times are corrected by it).
struct ChangesRequest: Decodable, Sendable {
    /// The organisation the install belongs to (`orgs.json`); the first one when absent.
    var org: String?
    var sentAt: String
    var changes: [ProgressRecord]

    private enum CodingKeys: String, CodingKey { case org, sentAt, changes }

    init(from decoder: any Decoder) throws {
        // Up to 500 records: read by hand as the log's own copies are (a profile of the sync
        // route put Codable's reading of them at a tenth of the server's time).
        if let fields = try JSONFields(decoder) {
            changes = try fields.required(fields.objects("changes", ProgressRecord.init(storedFields:)), "changes")
            org = try fields.string("org")
            sentAt = try fields.required(fields.string("sentAt"), "sentAt")
        } else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            org = try container.decodeIfPresent(String.self, forKey: .org)
            sentAt = try container.decode(String.self, forKey: .sentAt)
            changes = try container.decode([ProgressRecord].self, forKey: .changes)
        }
    }
}

struct ChangesAnswer: Encodable, Sendable {
    struct Result: Encodable, Sendable {
        var mutationId: String
        var status: String
        var reason: String?
    }

    var cursor: UInt64
    var results: [Result]

    init(_ records: [ProgressRecord], outcomes: [CivicsSync.Outcome], cursor: UInt64) {
        self.cursor = cursor
        results = zip(records, outcomes).map { record, outcome in
            switch outcome {
            case .applied: Result(mutationId: record.mutationId.lowercased(), status: "applied")
            case .refused(let reason): Result(mutationId: String(record.mutationId.prefix(40)), status: "refused", reason: reason)
            }
        }
    }
}

extension ChangesAnswer: JSONObjectEncodable {
    // 500 results a batch: written by hand, members in key order, as the conformance's bytes.
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.encode("cursor", cursor)
        try object.objects("results", results) { result, value in
            try result.string("mutationId", value.mutationId)
            try result.string("reason", value.reason)
            try result.string("status", value.status)
        }
    }
}

struct LinkAnswer: Encodable, Sendable {
    var installId: String
    var linked: Bool
}

/// `POST /api/pop/newsletter/signups`: the app's `NewsletterSignup`.
struct SignupRequest: Decodable, Sendable {
    var id: String
    var name: String
    var email: String
    var signupDate: String
    var org: String?
}

struct SignupAnswer: Encodable, Sendable {
    var id: String
    /// `subscribed` (stored), `duplicate` (the address already has a live subscription) or
    /// `unsubscribed` (this signup was stored and later ended).
    var status: String
    /// Only to the device that made the signup: the link that ends it without an account.
    var unsubscribeUrl: String?
}
