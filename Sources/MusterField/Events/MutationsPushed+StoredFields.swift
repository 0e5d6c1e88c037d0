import MusterEvents
package import MusterJSON

// Pushed batches are the field app's bulk of the log (up to 500 mutations each), written at every
// push and read by the fold: they are read from and written to the stored form by hand (and each
// mutation of a push request the same way).
// CodecAgreementTests holds them equal to the Codable conformance (and the bytes to Foundation's)
// on random payloads.

extension MutationsPushed: StoredFieldsDecodable {
    // Members are read in their stored (sorted) order: each lookup then compares one key.
    package init(storedFields fields: JSONFields) throws {
        let deviceId = try fields.required(fields.string("deviceId"), "deviceId")
        let mutations = try fields.required(fields.objects("mutations", FieldMutation.init(storedFields:)), "mutations")
        self.init(deviceId: deviceId, personId: try fields.required(fields.string("personId"), "personId"),
                  orgId: try fields.required(fields.string("orgId"), "orgId"), role: try fields.required(fields.string("role"), "role"),
                  mutations: mutations)
    }
}

extension MutationsPushed: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("deviceId", deviceId)
        try object.objects("mutations", mutations) { try $1.encodeMembers(&$0) }
        try object.string("orgId", orgId)
        try object.string("personId", personId)
        try object.string("role", role)
    }
}

extension FieldMutation {
    init(storedFields fields: JSONFields) throws {
        let (baseVersion, changedAt) = (try fields.required(fields.int("baseVersion"), "baseVersion"),
                                        try fields.required(fields.string("changedAt"), "changedAt"))
        let (deleted, entity) = (try fields.bool("deleted"), try fields.decode(EntityKind.self, "entity"))
        let values = try Self.values(fields)
        self.init(mutationId: try fields.required(fields.string("mutationId"), "mutationId"), entity: entity,
                  id: try fields.required(fields.string("id"), "id"), baseVersion: baseVersion, fields: values, deleted: deleted, changedAt: changedAt)
    }

    /// The changed fields: plain values one by one; a nested value (never stored: validation refuses
    /// it) makes the whole map go through its `Decodable`, so nothing is lost either way.
    static func values(_ fields: JSONFields) throws -> [String: JSONValue] {
        let members = try fields.required(fields.scalars("fields"), "fields")
        var values = [String: JSONValue](minimumCapacity: members.count)
        for (name, scalar) in members {
            guard let value = JSONValue(scalar: scalar) else { return try fields.decode([String: JSONValue].self, "fields") }
            values[name] = value
        }
        return values
    }

    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.int("baseVersion", baseVersion)
        try object.string("changedAt", changedAt)
        try object.bool("deleted", deleted)
        try object.string("entity", entity.rawValue)
        try object.object("fields") { object in
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                if let scalar = value.scalar { try object.scalar(name, scalar) } else { try object.encode(name, value) }
            }
        }
        try object.string("id", id)
        try object.string("mutationId", mutationId)
    }
}
