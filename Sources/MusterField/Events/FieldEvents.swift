public import MusterEvents

/// `field.device.pushed.v1`: a batch of changes one device made (offline or not), with the person
/// and role that signed the push. Whether each change lands, merges or conflicts is decided by the
/// fold in log order, so two servers taking pushes at once cannot decide differently.
public struct MutationsPushed: EventPayload {
    public static let eventType = EventType(app: "field", aggregate: "device", event: "pushed", major: 1)
    public static let maxMutations = 500

    public var deviceId: String
    public var personId: String
    public var orgId: String
    public var role: String
    public var mutations: [FieldMutation]

    public init(deviceId: String, personId: String, orgId: String, role: String, mutations: [FieldMutation]) {
        self.deviceId = deviceId
        self.personId = personId
        self.orgId = orgId
        self.role = role
        self.mutations = mutations
    }

    public var aggregateID: String { deviceId }

    public func validate() throws {
        try Validate.uuid(deviceId, field: "/deviceId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(role, FieldRoles.all, field: "/role")
        try Validate.count(mutations, 1...Self.maxMutations, field: "/mutations")
        for (i, mutation) in mutations.enumerated() { try mutation.validate(within: "/mutations/\(i)") }
    }
}

/// `field.project.assigned.v1`: a manager put a worker on a project (or took them off it).
public struct ProjectAssigned: EventPayload {
    public static let eventType = EventType(app: "field", aggregate: "project", event: "assigned", major: 1)

    public var projectId: String
    public var orgId: String
    public var personId: String
    public var assigned: Bool
    public var managerId: String

    public init(projectId: String, orgId: String, personId: String, assigned: Bool, managerId: String) {
        self.projectId = projectId
        self.orgId = orgId
        self.personId = personId
        self.assigned = assigned
        self.managerId = managerId
    }

    public var aggregateID: String { projectId }

    public func validate() throws {
        for (value, field) in [(projectId, "/projectId"), (orgId, "/orgId"), (personId, "/personId"), (managerId, "/managerId")] {
            try Validate.uuid(value, field: field)
        }
    }
}

/// `field.entry.approved.v1`: a manager approved a time entry; from then on its start and end are
/// never overwritten silently.
public struct TimeEntryApproved: EventPayload {
    public static let eventType = EventType(app: "field", aggregate: "entry", event: "approved", major: 1)

    public var entryId: String
    public var orgId: String
    public var managerId: String

    public init(entryId: String, orgId: String, managerId: String) {
        self.entryId = entryId
        self.orgId = orgId
        self.managerId = managerId
    }

    public var aggregateID: String { entryId }

    public func validate() throws {
        try Validate.uuid(entryId, field: "/entryId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.uuid(managerId, field: "/managerId")
    }
}

/// `field.conflict.resolved.v1`: a manager's decision on a change that met an important field
/// someone else had changed: keep the server's value, take the device's, or write another.
public struct ConflictResolved: EventPayload {
    public static let eventType = EventType(app: "field", aggregate: "conflict", event: "resolved", major: 1)

    public enum Decision: String, Codable, Sendable, CaseIterable {
        case keepServer, takeDevice, edit
    }

    public var conflictId: String
    public var orgId: String
    public var managerId: String
    public var decision: Decision
    /// With `edit`: the values to write (fields of the conflict only).
    public var values: [String: JSONValue]?
    public var decidedAt: String

    public init(conflictId: String, orgId: String, managerId: String, decision: Decision, values: [String: JSONValue]?, decidedAt: String) {
        self.conflictId = conflictId
        self.orgId = orgId
        self.managerId = managerId
        self.decision = decision
        self.values = values
        self.decidedAt = decidedAt
    }

    public var aggregateID: String { conflictId }

    public func validate() throws {
        try Validate.uuid(conflictId, field: "/conflictId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.uuid(managerId, field: "/managerId")
        try Validate.timestamp(decidedAt, field: "/decidedAt")
        guard (decision == .edit) == (values != nil) else { throw EventValidationError(field: "/values", "must be given with edit, and only then") }
        if let values { try Validate.count(values, 1...FieldMutation.maxFields, field: "/values") }
    }
}

/// `field.company.configured.v1`: a company's sync settings.
public struct CompanyConfigured: EventPayload {
    public static let eventType = EventType(app: "field", aggregate: "company", event: "configured", major: 1)

    public var orgId: String
    public var settings: CompanySettings

    public init(orgId: String, settings: CompanySettings) {
        self.orgId = orgId
        self.settings = settings
    }

    public var aggregateID: String { orgId }

    public func validate() throws {
        try Validate.uuid(orgId, field: "/orgId")
        try settings.validate()
    }
}

/// What a company decides about sync.
public struct CompanySettings: Codable, Sendable, Equatable {
    /// `kind.field` names never overwritten silently (`expense.amount`).
    public var importantFields: [String]
    /// `timeEntry.startTime` and the like: important once a manager approved the entry.
    public var importantOnceApproved: [String]
    /// How long a deletion is remembered: the longest a device may stay offline and still catch
    /// up by pulling; after that it resyncs from scratch.
    public var tombstoneDays: Int

    public static let standard = CompanySettings(importantFields: ["expense.amount"],
                                                 importantOnceApproved: ["timeEntry.endTime", "timeEntry.startTime"], tombstoneDays: 30)

    public init(importantFields: [String], importantOnceApproved: [String], tombstoneDays: Int) {
        self.importantFields = importantFields
        self.importantOnceApproved = importantOnceApproved
        self.tombstoneDays = tombstoneDays
    }

    public func validate() throws {
        guard (1...3_650).contains(tombstoneDays) else { throw EventValidationError(field: "/settings/tombstoneDays", "must be 1 to 3650") }
        for (list, field) in [(importantFields, "importantFields"), (importantOnceApproved, "importantOnceApproved")] {
            try Validate.count(list, 0...64, field: "/settings/\(field)")
            for (i, name) in list.enumerated() {
                let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2, let kind = EntityKind(rawValue: parts[0]), kind.fields[parts[1]] != nil else {
                    throw EventValidationError(field: "/settings/\(field)/\(i)", "must name a field, like expense.amount")
                }
            }
        }
    }

    /// Whether a change of `field` must wait for a manager: an important field the device had not
    /// seen change, or a field of an approved entry that only a manager may still change.
    func guards(_ kind: EntityKind, _ field: String, approved: Bool, changedSince: Bool, byManager: Bool) -> Bool {
        let name = "\(kind.rawValue).\(field)"
        if approved && !byManager && importantOnceApproved.contains(name) { return true }
        return changedSince && (importantFields.contains(name) || (approved && importantOnceApproved.contains(name)))
    }
}

/// The roles of the field app's people.
public enum FieldRoles {
    public static let worker = "worker", manager = "manager"
    public static let all: Set<String> = [worker, manager]
}

extension EventCatalog {
    /// The field app's events.
    public static var field: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(MutationsPushed.self)
        catalog.register(ProjectAssigned.self)
        catalog.register(TimeEntryApproved.self)
        catalog.register(ConflictResolved.self)
        catalog.register(CompanyConfigured.self)
        return catalog
    }
}
