package import MusterEvents

/// `field.device.pushed.v1`: a batch of changes one device made (offline or not), with the person
/// and role that signed the push. Whether each change lands, merges or conflicts is decided by the
/// fold in log order, so two servers taking pushes at once cannot decide differently.
/// `StoredExactly`: a push and its stored text read back by hand are equal (the field fuzz target
/// checks every batch it builds), so the fold of the process that took the push folds the value.
package struct MutationsPushed: EventPayload, StoredExactly {
    package static let eventType = EventType(app: "field", aggregate: "device", event: "pushed", major: 1)
    package static let maxMutations = 500

    package var deviceId: String
    package var personId: String
    package var orgId: String
    package var role: String
    package var mutations: [FieldMutation] {
        didSet { mutationsChecked = false }
    }
    /// Set by `FieldSync.push`, whose mutations each passed `FieldMutation.validate(within:)` as
    /// they were corrected: `validate()` then checks the batch's own fields, not every mutation a
    /// second time (that was 5 % of a push's CPU). Never stored nor compared; any change to
    /// `mutations` clears it, and a decoded batch is checked whole.
    var mutationsChecked = false

    enum CodingKeys: String, CodingKey { case deviceId, personId, orgId, role, mutations }

    package init(deviceId: String, personId: String, orgId: String, role: String, mutations: [FieldMutation]) {
        self.deviceId = deviceId
        self.personId = personId
        self.orgId = orgId
        self.role = role
        self.mutations = mutations
    }

    /// A batch of mutations that each passed `validate(within:)` already.
    init(deviceId: String, personId: String, orgId: String, role: String, checked mutations: [FieldMutation]) {
        self.init(deviceId: deviceId, personId: personId, orgId: orgId, role: role, mutations: mutations)
        mutationsChecked = true
    }

    package static func == (a: Self, b: Self) -> Bool {
        (a.deviceId, a.personId, a.orgId, a.role) == (b.deviceId, b.personId, b.orgId, b.role) && a.mutations == b.mutations
    }

    package var aggregateID: String { deviceId }

    package func validate() throws {
        try Validate.uuid(deviceId, field: "/deviceId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(role, FieldRoles.all, field: "/role")
        try Validate.count(mutations, 1...Self.maxMutations, field: "/mutations")
        guard !mutationsChecked else { return }
        for (i, mutation) in mutations.enumerated() { try mutation.validate(within: "/mutations/\(i)") }
    }
}

/// `field.project.assigned.v1`: a manager put a worker on a project (or took them off it).
package struct ProjectAssigned: EventPayload {
    package static let eventType = EventType(app: "field", aggregate: "project", event: "assigned", major: 1)

    package var projectId: String
    package var orgId: String
    package var personId: String
    package var assigned: Bool
    package var managerId: String

    package init(projectId: String, orgId: String, personId: String, assigned: Bool, managerId: String) {
        self.projectId = projectId
        self.orgId = orgId
        self.personId = personId
        self.assigned = assigned
        self.managerId = managerId
    }

    package var aggregateID: String { projectId }

    package func validate() throws {
        for (value, field) in [(projectId, "/projectId"), (orgId, "/orgId"), (personId, "/personId"), (managerId, "/managerId")] {
            try Validate.uuid(value, field: field)
        }
    }
}

/// `field.entry.approved.v1`: a manager approved a time entry; from then on its start and end are
/// never overwritten silently.
package struct TimeEntryApproved: EventPayload {
    package static let eventType = EventType(app: "field", aggregate: "entry", event: "approved", major: 1)

    package var entryId: String
    package var orgId: String
    package var managerId: String

    package init(entryId: String, orgId: String, managerId: String) {
        self.entryId = entryId
        self.orgId = orgId
        self.managerId = managerId
    }

    package var aggregateID: String { entryId }

    package func validate() throws {
        try Validate.uuid(entryId, field: "/entryId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.uuid(managerId, field: "/managerId")
    }
}

/// `field.conflict.resolved.v1`: a manager's decision on a change that met an important field
/// someone else had changed: keep the server's value, take the device's, or write another.
package struct ConflictResolved: EventPayload {
    package static let eventType = EventType(app: "field", aggregate: "conflict", event: "resolved", major: 1)

    package enum Decision: String, Codable, Sendable, CaseIterable {
        case keepServer, takeDevice, edit
    }

    package var conflictId: String
    package var orgId: String
    package var managerId: String
    package var decision: Decision
    /// With `edit`: the values to write (fields of the conflict only).
    package var values: [String: JSONValue]?
    package var decidedAt: String

    package init(conflictId: String, orgId: String, managerId: String, decision: Decision, values: [String: JSONValue]?, decidedAt: String) {
        self.conflictId = conflictId
        self.orgId = orgId
        self.managerId = managerId
        self.decision = decision
        self.values = values
        self.decidedAt = decidedAt
    }

    package var aggregateID: String { conflictId }

    package func validate() throws {
        try Validate.uuid(conflictId, field: "/conflictId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.uuid(managerId, field: "/managerId")
        try Validate.timestamp(decidedAt, field: "/decidedAt")
        guard (decision == .edit) == (values != nil) else { throw EventValidationError(field: "/values", "must be given with edit, and only then") }
        if let values { try Validate.count(values, 1...FieldMutation.maxFields, field: "/values") }
    }
}

/// `field.company.configured.v1`: a company's sync settings.
package struct CompanyConfigured: EventPayload {
    package static let eventType = EventType(app: "field", aggregate: "company", event: "configured", major: 1)

    package var orgId: String
    package var settings: CompanySettings

    package init(orgId: String, settings: CompanySettings) {
        self.orgId = orgId
        self.settings = settings
    }

    package var aggregateID: String { orgId }

    package func validate() throws {
        try Validate.uuid(orgId, field: "/orgId")
        try settings.validate()
    }
}

/// `field.entry.rejected.v1`: a manager sent a time entry back to its worker, with why; it waits
/// for approval again, and the worker's next change of it clears the rejection.
package struct TimeEntryRejected: EventPayload {
    package static let eventType = EventType(app: "field", aggregate: "entry", event: "rejected", major: 1)

    package var entryId: String
    package var orgId: String
    package var managerId: String
    package var reason: String

    package init(entryId: String, orgId: String, managerId: String, reason: String) {
        self.entryId = entryId
        self.orgId = orgId
        self.managerId = managerId
        self.reason = reason
    }

    package var aggregateID: String { entryId }

    package func validate() throws {
        try Validate.uuid(entryId, field: "/entryId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.uuid(managerId, field: "/managerId")
        try Validate.length(reason, 1...500, field: "/reason")
    }
}

extension EventCatalog {
    /// The field app's events.
    package static var field: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(MutationsPushed.self)
        catalog.register(ProjectAssigned.self)
        catalog.register(TimeEntryApproved.self)
        catalog.register(TimeEntryRejected.self)
        catalog.register(ConflictResolved.self)
        catalog.register(CompanyConfigured.self)
        catalog.register(FileStored.self)
        return catalog
    }
}

/// `field.file.stored.v1`: a person of a company finished uploading a photo or receipt. The
/// company may name the digest in its records from then on; a digest names bytes and grants
/// nothing, so a record naming a file its company never uploaded is refused, and reading a file
/// needs both this and a record the reader sees.
package struct FileStored: EventPayload {
    package static let eventType = EventType(app: "field", aggregate: "file", event: "stored", major: 1)

    package var digest: String
    package var orgId: String
    package var personId: String
    package var size: Int
    package var type: String

    package init(digest: String, orgId: String, personId: String, size: Int, type: String) {
        self.digest = digest
        self.orgId = orgId
        self.personId = personId
        self.size = size
        self.type = type
    }

    /// One aggregate per company and file: a second upload of the same bytes is the same fact.
    package var aggregateID: String { digest }

    package func validate() throws {
        try Validate.prefixed(digest, "", .lowerHex, count: 64, field: "/digest", "a SHA-256 in 64 lowercase hex digits")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.uuid(personId, field: "/personId")
        guard (1...(64 << 20)).contains(size) else { throw EventValidationError(field: "/size", "must be 1 byte to 64 MiB") }
        try Validate.length(type, 1...100, field: "/type")
    }
}
