import MusterEvents
package import MusterJSON

// The field book is written whole as the fold's snapshot every few seconds under load: its records,
// changes, file index and kept outcomes (a hundred thousand or more of each) are written member
// by member here, as their `Codable` conformances write them (FieldBookSnapshotTests holds the
// bytes equal). The few, small rest (conflicts, settings, members) goes through `Codable`.

extension FieldBook: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.object("companies") { object in
            for (orgId, company) in companies { try object.object(orgId) { try company.encodeMembers(&$0) } }
        }
        try object.encode("conflicts", conflicts)
        try object.object("files") { object in
            for (digest, ids) in files { try object.strings(digest, ids.lazy.map(\.description)) }
        }
        try object.objects("outcomes", outcomes.byKey) { object, entry in
            try object.string("device", entry.key.device.description)
            try object.string("mutation", entry.key.mutation.description)
            try object.string("person", entry.key.person.description)
            try entry.value.encodeMembers(&object)
        }
        try object.object("records") { object in
            for (id, record) in records { try object.object(id.description) { try record.encodeMembers(&$0) } }
        }
        try object.object("storedFiles") { object in
            for (orgId, digests) in storedFiles { try object.strings(orgId, digests) }
        }
    }
}

extension FieldBook.Record {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.bool("approved", approved)
        try object.bool("deleted", deleted)
        if let deletedAt { try object.int("deletedAt", Int(deletedAt)) } // absent when nil, as the conformance leaves it
        try object.object("fields") { object in
            for (name, field) in fields {
                try object.object(name) { object in
                    try object.object("stamp") { try $0.int("at", Int(field.stamp.at)); try $0.string("device", field.stamp.device) }
                    if let scalar = field.value.scalar { try object.scalar("value", scalar) } else { try object.encode("value", field.value) }
                    try object.int("version", field.version)
                }
            }
        }
        try object.string("id", id)
        try object.string("kind", kind.rawValue)
        try object.string("orgId", orgId)
        try object.string("ownerId", ownerId)
        try object.string("projectId", projectId)
        try object.strings("review", review)
        try object.int("sequence", sequence)
        try object.int("version", version)
    }
}

extension FieldBook.Company {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.objects("changes", changes) { object, change in
            try object.string("recordId", change.recordId.description)
            try object.int("sequence", change.sequence)
        }
        try object.int("lastPurge", Int(lastPurge))
        try object.encode("members", members)
        try object.int("purgedThrough", purgedThrough)
        try object.encode("resets", resets)
        try object.encode("settings", settings)
    }
}

extension FieldBook.KeptOutcome {
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.int("at", Int(at))
        try object.object("outcome") { object in
            switch outcome {
            case .applied(let version): try object.object("applied") { try $0.int("version", version) }
            case .merged(let version): try object.object("merged") { try $0.int("version", version) }
            case .refused(let reason): try object.object("refused") { try $0.string("_0", reason) }
            case .conflict: try object.encode("conflict", ConflictOnly(outcome: outcome))
            }
        }
    }

    /// A conflict's outcome, rare, written by the conformance: the `conflict` member of the enum's encoding.
    private struct ConflictOnly: Encodable {
        var outcome: FieldBook.Outcome

        func encode(to encoder: any Encoder) throws {
            guard case .conflict(let conflictId, let version, let server) = outcome else { return }
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(conflictId, forKey: .conflictId)
            try container.encode(version, forKey: .version)
            try container.encode(server, forKey: .server)
        }

        enum Keys: String, CodingKey { case conflictId, version, server }
    }
}
