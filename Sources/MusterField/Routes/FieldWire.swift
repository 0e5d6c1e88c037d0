import MusterEvents
import MusterJSON

/// `POST /api/field/mutations`: what a device changed offline, with its own clock (`sentAt` is when
/// it sent the batch; each mutation's `changedAt` is corrected by it).
struct PushRequest: Decodable, Sendable {
    var deviceId: String
    var sentAt: String
    var mutations: [IncomingMutation]
}

/// One mutation as sent: read leniently, so a mutation the server cannot read gets a refusal of
/// its own instead of failing the batch (a device's queue must never wedge behind one change).
struct IncomingMutation: Decodable, Sendable {
    var mutationId: String?
    var mutation: FieldSync.Incoming

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        // MusterJSON's decoder (every request) reads it by hand, as the log's copy is read; any other through Codable.
        let fields = try? JSONFields(decoder)
        mutationId = if let fields { try? fields.string("mutationId") } else {
            try? decoder.container(keyedBy: AnyKey.self).decode(String.self, forKey: AnyKey(stringValue: "mutationId"))
        }
        do {
            mutation = .success(try fields.map(FieldMutation.init(storedFields:)) ?? FieldMutation(from: decoder))
        } catch let error as DecodingError {
            mutation = .failure(EventValidationError(field: Self.path(of: error), Self.reason(error)))
        } catch {
            mutation = .failure(EventValidationError(field: "", "unreadable: \(error)"))
        }
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context? = switch error {
        case .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): c
        @unknown default: nil
        }
        return (context?.codingPath ?? []).map(\.stringValue).joined(separator: ".")
    }

    static func reason(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "\(key.stringValue) is missing"
        case .typeMismatch, .valueNotFound: "has the wrong type"
        case .dataCorrupted: "is not a value it may hold (entity: \(EntityKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        @unknown default: "is unreadable"
        }
    }
}

struct PushAnswer: Encodable, Sendable {
    struct Result: Encodable, Sendable {
        var mutationId: String?
        /// applied, merged, conflict or refused.
        var status: String
        var version: Int?
        var conflictId: String?
        /// With a conflict: the server's values of the fields that conflict.
        var server: [String: JSONValue]?
        var reason: String?

        init(_ mutationId: String?, _ outcome: FieldBook.Outcome) {
            self.mutationId = mutationId
            switch outcome {
            case .applied(let version): (status, self.version) = ("applied", version)
            case .merged(let version): (status, self.version) = ("merged", version)
            case .conflict(let id, let version, let server): (status, self.version, conflictId, self.server) = ("conflict", version, id, server)
            case .refused(let why): (status, reason) = ("refused", why)
            }
        }
    }

    /// A cursor to pull from: at least this push's changes.
    var cursor: String
    var results: [Result]
}

/// One record as a pull returns it.
struct RecordBody: Encodable, Sendable {
    var entity: EntityKind
    var id: String
    var projectId: String
    var version: Int
    var deleted: Bool
    var ownerId: String
    var approved: Bool
    /// Why a manager sent a time entry back, until its worker changes it; null otherwise.
    var rejection: String?
    /// Why a manager should look at it (a time entry off the site); empty when all is well.
    var review: [String]
    var fields: [String: JSONValue]

    init(_ record: FieldBook.Record) {
        (entity, id, projectId, version, deleted) = (record.kind, record.id, record.projectId, record.version, record.deleted)
        (ownerId, approved, rejection, review) = (record.ownerId, record.approved, record.rejection, record.review)
        fields = record.deleted ? [:] : record.values
    }
}

struct PullAnswer: Encodable, Sendable {
    var cursor: String
    var more: Bool
    var full: Bool
    var records: [RecordBody]

    init(_ page: PullPage) {
        (cursor, more, full, records) = (page.cursor.description, page.more, page.full, page.records.map(RecordBody.init))
    }
}

struct ConflictBody: Encodable, Sendable {
    var conflictId: String
    var entity: EntityKind
    var recordId: String
    var projectId: String
    var personId: String
    var deviceId: String
    var device: [String: JSONValue]
    var server: [String: JSONValue]
    var changedAt: String
    var decision: ConflictResolved.Decision?
    var decidedBy: String?

    init(_ conflict: FieldBook.Conflict) {
        (conflictId, entity, recordId, projectId) = (conflict.id, conflict.kind, conflict.recordId, conflict.projectId)
        (personId, deviceId, device, server) = (conflict.personId, conflict.deviceId, conflict.device, conflict.server)
        (changedAt, decision, decidedBy) = (Timestamp.string(millis: conflict.stamp.at), conflict.decision, conflict.decidedBy)
    }
}

struct ConflictsAnswer: Encodable, Sendable { var conflicts: [ConflictBody] }

struct ResolveRequest: Decodable, Sendable {
    var decision: ConflictResolved.Decision
    var values: [String: JSONValue]?
}

struct TimesheetAnswer: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        var entryId, personId, personName, projectId, projectName, start: String
        var end: String?
        var hours: Double?
        var approved: Bool
        var review: [String]
    }

    struct Total: Encodable, Sendable {
        var personId, personName, projectId, projectName: String
        var hours: Double
        var entries: Int
        var open: Int
        var toReview: Int
    }

    var week: String
    var timeZone: String
    var totals: [Total]
    var entries: [Entry]

    /// `names`: each person's name as people see it (sealed personal data, opened for the answer).
    init(_ timesheet: Timesheet, names: [String: String]) {
        let entries = timesheet.entries
        (week, timeZone) = (timesheet.week.description, timesheet.timeZone)
        self.entries = entries.map { Entry(entryId: $0.entryId, personId: $0.personId, personName: names[$0.personId] ?? "", projectId: $0.projectId,
                                           projectName: $0.projectName,
                                           start: $0.start, end: $0.end, hours: $0.hours.map(Self.rounded), approved: $0.approved, review: $0.review) }
        var totals: [String: Total] = [:]
        for entry in entries {
            var total = totals[entry.personId + entry.projectId]
                ?? Total(personId: entry.personId, personName: names[entry.personId] ?? "", projectId: entry.projectId, projectName: entry.projectName,
                         hours: 0, entries: 0, open: 0, toReview: 0)
            total.hours = Self.rounded(total.hours + (entry.hours ?? 0))
            total.entries += 1
            if entry.hours == nil { total.open += 1 }
            if !entry.review.isEmpty { total.toReview += 1 }
            totals[entry.personId + entry.projectId] = total
        }
        self.totals = totals.values.sorted { ($0.personId, $0.projectName, $0.projectId) < ($1.personId, $1.projectName, $1.projectId) }
    }

    static func rounded(_ hours: Double) -> Double { (hours * 100).rounded() / 100 }
}

/// `POST /api/field/time-entries/{entryId}/reject`.
struct RejectRequest: Decodable {
    var reason: String
}
