package import MusterEvents

/// One change a device made offline to one record, as the log keeps it: `changedAt` is already on
/// the server's clock (corrected on arrival with the collector's skew correction).
package struct FieldMutation: Codable, Sendable, Equatable {
    /// The device's id for this change: a retry carries the same one and is applied once.
    package var mutationId: String
    package var entity: EntityKind
    package var id: String
    /// The record's version the device last saw (0 for a record it creates).
    package var baseVersion: Int
    /// The fields it changed, with their new values.
    package var fields: [String: JSONValue]
    /// The device deleted the record.
    package var deleted: Bool?
    package var changedAt: String

    package init(mutationId: String, entity: EntityKind, id: String, baseVersion: Int, fields: [String: JSONValue],
                deleted: Bool? = nil, changedAt: String) {
        self.mutationId = mutationId
        self.entity = entity
        self.id = id
        self.baseVersion = baseVersion
        self.fields = fields
        self.deleted = deleted
        self.changedAt = changedAt
    }

    package static let maxFields = 32

    package var isDelete: Bool { deleted == true }

    /// Checks the mutation; a failure names its field under `path`.
    package func validate(within path: String) throws {
        try Validate.uuid(mutationId, field: path + "/mutationId")
        try Validate.uuid(id, field: path + "/id")
        guard (0...Int(Int32.max)).contains(baseVersion) else { throw EventValidationError(field: path + "/baseVersion", "must be 0 or more") }
        try Validate.timestamp(changedAt, field: path + "/changedAt")
        try Validate.count(fields, 0...Self.maxFields, field: path + "/fields")
        if isDelete { return }
        guard !fields.isEmpty else { throw EventValidationError(field: path + "/fields", "must change at least one field") }
        let rules = entity.fields
        // Checked as they come; only a mutation with a problem is checked again in name order, so
        // that it names the same first problem whatever order its fields arrived in.
        guard fields.contains(where: { field in rules[field.key].map { $0.problem(with: field.value) != nil } ?? true }) else { return }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let rule = rules[name] else {
                throw EventValidationError(field: path + "/fields", "\(entity.rawValue) has no field \(name.prefix(64)) a device may write")
            }
            if let problem = rule.problem(with: value) { throw EventValidationError(field: path + "/fields/\(name)", problem) }
        }
    }
}
