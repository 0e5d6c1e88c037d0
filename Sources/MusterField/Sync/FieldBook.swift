package import MusterEvents

/// Every company's field records as the log decides them: the merge of every device's changes,
/// applied in log order. Pure (no I/O): the fold holds one, and tests apply pushes from several
/// devices in every order to it.
///
/// The merge: each field keeps the write with the latest stamp (the change's corrected time, then
/// the device id), so two devices that edited different fields offline both keep their edits. An
/// important field (the company's list: an expense's amount; a time entry's start and end once
/// approved) is never overwritten by a device that had not seen its current value: the change is
/// kept as a conflict for a manager, who decides (`ConflictResolved`).
package struct FieldBook: Codable, Sendable, Equatable {
    /// What orders two writes of one field.
    package struct Stamp: Codable, Sendable, Equatable, Comparable {
        package var at: Int64
        package var device: String

        package static func < (a: Stamp, b: Stamp) -> Bool { (a.at, a.device) < (b.at, b.device) }
    }

    /// One field's value, the write it came from, and the record's version when it changed.
    package struct Field: Codable, Sendable, Equatable {
        package var value: JSONValue
        package var stamp: Stamp
        package var version: Int
    }

    /// One project, time entry, expense or photo.
    package struct Record: Codable, Sendable, Equatable {
        package var kind: EntityKind
        package var id: String
        package var orgId: String
        /// The project it belongs to (a project's own id for a project).
        package var projectId: String
        /// Who created it: a time entry's or expense's worker.
        package var ownerId: String
        package var version: Int
        /// The log sequence of its latest change: what a pull since a cursor compares.
        package var sequence: UInt64
        package var fields: [String: Field]
        package var deleted = false
        package var deletedAt: Int64?
        package var approved = false
        /// Why a manager sent it back (a time entry), until its worker changes it.
        package var rejection: String?
        /// Why a manager should look at it (a time entry started outside the site, say).
        package var review: [String] = []

        package var values: [String: JSONValue] { fields.mapValues(\.value) }

        /// The stored files it names: a photo's digest, an expense's receipt.
        var files: [String] {
            switch kind {
            case .photo: fields["digest"]?.value.string.map { [$0] } ?? []
            case .expense: fields["receipt"]?.value.string.map { [$0] } ?? []
            case .project, .timeEntry, .message: []
            }
        }
    }

    /// What became of one mutation; kept, so a retried batch gets the same answer.
    package enum Outcome: Codable, Sendable, Equatable {
        /// Stored as sent; the record is now at `version`.
        case applied(version: Int)
        /// Stored, merged with changes the device had not seen (or some of its fields lost to later writes).
        case merged(version: Int)
        /// An important field someone else changed meanwhile: not overwritten; a manager decides.
        case conflict(conflictId: String, version: Int, server: [String: JSONValue])
        /// Not stored, and why: the device drops it (it never blocks the queue).
        case refused(String)
    }

    /// A change to important fields that a manager must decide on.
    package struct Conflict: Codable, Sendable, Equatable {
        package var id: String
        package var orgId: String
        package var kind: EntityKind
        package var recordId: String
        package var projectId: String
        package var personId: String
        package var deviceId: String
        /// The device's values of the important fields, and the server's when it met them.
        package var device: [String: JSONValue]
        package var server: [String: JSONValue]
        package var stamp: Stamp
        package var sequence: UInt64
        package var decision: ConflictResolved.Decision?
        package var decidedBy: String?
    }

    /// One company: its settings, who works on which project, and its records in log order.
    package struct Company: Codable, Sendable, Equatable {
        package var settings = CompanySettings.standard
        /// Project → the workers assigned to it.
        package var members: [String: Set<String>] = [:]
        /// Person → the sequence of their latest assignment change: a pull from before it is a full resync.
        package var resets: [String: UInt64] = [:]
        /// Tombstones up to here are forgotten: a pull from before it is a full resync.
        package var purgedThrough: UInt64 = 0
        /// Every change of a record, in log order (stale entries skipped on reading, dropped now and then).
        package var changes: [Change] = []
        package var lastPurge: Int64 = 0
    }

    package struct Change: Codable, Sendable, Equatable {
        package var sequence: UInt64
        package var recordId: FieldID
    }

    struct KeptOutcome: Codable, Sendable, Equatable {
        var outcome: Outcome
        var at: Int64
    }

    /// Whose mutation an outcome answers: a device id is the client's word, so one person's cannot
    /// answer for another's. The mutation id first: it is what tells two keys apart soonest.
    struct OutcomeKey: Hashable, Sendable {
        var mutation: FieldID
        var device: FieldID
        var person: FieldID
    }

    /// Every record by its id.
    package var records: [FieldID: Record] = [:]
    package var conflicts: [String: Conflict] = [:]
    package var companies: [String: Company] = [:]
    /// A photo's or receipt's digest → the records that name it: who may read the stored file.
    package var files: [String: Set<FieldID>] = [:]
    /// Company → the digests uploaded within it (`FileStored`): the only files its records may name.
    package var storedFiles: [String: Set<String>] = [:]
    /// What became of each mutation.
    var outcomes = KeptOutcomes()

    package init() {}

    /// The record `id` names, if any.
    package func record(_ id: String) -> Record? { records[FieldID(id)] }

    /// What became of `mutationId` from `personId`'s `deviceId`, once folded.
    package func outcome(person personId: String, device deviceId: String, mutation mutationId: String) -> Outcome? {
        outcome(person: FieldID(personId), device: FieldID(deviceId), mutation: mutationId)
    }

    /// The same, for a batch's mutations: the person's and the device's ids read once.
    func outcome(person: FieldID, device: FieldID, mutation mutationId: String) -> Outcome? {
        outcomes[OutcomeKey(mutation: FieldID(mutationId), device: device, person: person)]?.outcome
    }

    /// Whether `personId` (with `role`) sees `record`: managers see their company's; workers see
    /// their projects, their projects' photos and messages, and their own entries and expenses.
    package func sees(_ record: Record, personId: String, orgId: String, role: String) -> Bool {
        guard record.orgId == orgId else { return false }
        if role == FieldRoles.manager { return true }
        guard companies[orgId]?.members[record.projectId]?.contains(personId) == true else { return false }
        return record.kind == .project || record.kind == .photo || record.kind == .message || record.ownerId == personId
    }

    /// Records a change of `record` at `sequence` in its company's order.
    mutating func touched(_ record: inout Record, at sequence: UInt64) {
        record.sequence = sequence
        let id = FieldID(record.id)
        companies[record.orgId, default: Company()].changes.append(Change(sequence: sequence, recordId: id))
        let before = records.updateValue(record, forKey: id)?.files ?? [] // one lookup stores it and gives the old
        let after = record.files
        guard before != after else { return }
        for digest in before where !after.contains(digest) { unfile(digest, id) }
        for digest in after { files[digest, default: []].insert(id) }
    }

    /// Forgets that `recordId` names `digest`.
    mutating func unfile(_ digest: String, _ recordId: FieldID) {
        files[digest]?.remove(recordId)
        if files[digest]?.isEmpty == true { files[digest] = nil }
    }
}
