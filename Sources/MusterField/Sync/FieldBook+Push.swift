import MusterEvents

extension FieldBook {
    /// Applies one device's batch in order; a mutation seen before (a retried batch) changes nothing.
    package mutating func apply(_ pushed: MutationsPushed, sequence: UInt64, at time: Int64) {
        let (person, device) = (FieldID(pushed.personId), FieldID(pushed.deviceId))
        for mutation in pushed.mutations {
            let key = OutcomeKey(mutation: FieldID(mutation.mutationId), device: device, person: person)
            guard outcomes[key] == nil else { continue }
            let outcome = decide(mutation, from: pushed, sequence: sequence)
            outcomes[key] = KeptOutcome(outcome: outcome, at: time)
        }
    }

    private mutating func decide(_ mutation: FieldMutation, from pushed: MutationsPushed, sequence: UInt64) -> Outcome {
        guard let at = Timestamp.millis(mutation.changedAt) else { return .refused("changedAt must be an RFC 3339 UTC timestamp") }
        // A digest is content addressing, not permission: only files uploaded in the company.
        for name in ["digest", "receipt"] {
            if let digest = mutation.fields[name]?.string, storedFiles[pushed.orgId]?.contains(digest) != true {
                return .refused("\(name) names no file uploaded in your company: upload it first")
            }
        }
        let stamp = Stamp(at: at, device: pushed.deviceId)
        let manager = pushed.role == FieldRoles.manager
        if mutation.entity.managersOnly && !manager { return .refused("only managers change \(mutation.entity.rawValue)s") }
        guard var record = records[FieldID(mutation.id)] else {
            return create(mutation, from: pushed, stamp: stamp, sequence: sequence)
        }
        guard record.kind == mutation.entity, record.orgId == pushed.orgId else { return .refused("id \(mutation.id) is another record's") }
        guard sees(record, personId: pushed.personId, orgId: pushed.orgId, role: pushed.role),
              manager || record.kind == .project || record.ownerId == pushed.personId else {
            return .refused("not yours to change: \(record.kind.rawValue) \(record.id)")
        }
        if record.deleted {
            return mutation.isDelete ? .applied(version: record.version) : .refused("deleted on the server; drop your copy")
        }
        if mutation.isDelete {
            record.deleted = true
            record.deletedAt = at
            record.version += 1
            touched(&record, at: sequence)
            return .applied(version: record.version)
        }
        if let projectId = mutation.fields["projectId"]?.string, projectId != record.projectId {
            return .refused("a record does not move to another project; create a new one")
        }
        return update(&record, with: mutation, from: pushed, stamp: stamp, sequence: sequence)
    }

    private mutating func create(_ mutation: FieldMutation, from pushed: MutationsPushed, stamp: Stamp, sequence: UInt64) -> Outcome {
        if mutation.isDelete { return .applied(version: 0) } // nothing here to delete: the device's copy goes, as it wanted
        if let missing = mutation.entity.required.first(where: { mutation.fields[$0] == nil || mutation.fields[$0] == .null }) {
            return .refused("a new \(mutation.entity.rawValue) needs \(missing)")
        }
        let projectId: String
        if mutation.entity == .project {
            projectId = mutation.id
        } else {
            guard let id = mutation.fields["projectId"]?.string, let project = records[FieldID(id)], project.kind == .project, !project.deleted,
                  sees(project, personId: pushed.personId, orgId: pushed.orgId, role: pushed.role) else {
                return .refused("projectId names no project of yours")
            }
            projectId = id
        }
        var record = Record(kind: mutation.entity, id: mutation.id, orgId: pushed.orgId, projectId: projectId, ownerId: pushed.personId,
                            version: 1, sequence: sequence, fields: mutation.fields.mapValues { Field(value: $0, stamp: stamp, version: 1) })
        if record.kind == .project, record.fields["radiusMeters"] == nil {
            record.fields["radiusMeters"] = Field(value: .integer(Int64(Geofence.defaultRadius)), stamp: stamp, version: 1)
        }
        review(&record)
        touched(&record, at: sequence)
        return .applied(version: 1)
    }

    private mutating func update(_ record: inout Record, with mutation: FieldMutation, from pushed: MutationsPushed, stamp: Stamp,
                                 sequence: UInt64) -> Outcome {
        let settings = companies[record.orgId]?.settings ?? .standard
        let seen = mutation.baseVersion >= record.version
        // A conflict is named by its mutation id, which only its own device may use.
        let reused = conflicts[mutation.mutationId] != nil
        var (wrote, restamped, lost) = (false, false, false)
        var conflicted: [String: JSONValue] = [:]
        for (name, value) in mutation.fields.sorted(by: { $0.key < $1.key }) {
            guard let current = record.fields[name] else {
                record.fields[name] = Field(value: value, stamp: stamp, version: record.version + 1)
                wrote = true
                continue
            }
            if current.value == value {
                // The same value, written later: the later stamp stays, so the order of arrival never matters.
                if current.stamp < stamp {
                    record.fields[name] = Field(value: value, stamp: stamp, version: current.version)
                    restamped = true
                }
                continue
            }
            if settings.guards(record.kind, name, approved: record.approved, changedSince: mutation.baseVersion < current.version,
                               byManager: pushed.role == FieldRoles.manager) {
                if reused { return .refused("mutationId \(mutation.mutationId) is already another change's") }
                conflicted[name] = value
            } else if current.stamp < stamp {
                record.fields[name] = Field(value: value, stamp: stamp, version: record.version + 1)
                wrote = true
            } else {
                lost = true
            }
        }
        if wrote {
            record.version += 1
            record.rejection = nil // the worker's change answers the rejection
            review(&record)
            touched(&record, at: sequence)
        } else if restamped {
            records[FieldID(record.id)] = record
        }
        if !conflicted.isEmpty {
            let server = conflicted.keys.reduce(into: [String: JSONValue]()) { $0[$1] = record.fields[$1]?.value ?? .null }
            conflicts[mutation.mutationId] = Conflict(id: mutation.mutationId, orgId: record.orgId, kind: record.kind, recordId: record.id,
                                                      projectId: record.projectId, personId: pushed.personId, deviceId: pushed.deviceId,
                                                      device: conflicted, server: server, stamp: stamp, sequence: sequence)
            return .conflict(conflictId: mutation.mutationId, version: record.version, server: server)
        }
        return seen && !lost ? .applied(version: record.version) : .merged(version: record.version)
    }

    /// Marks a time entry whose positions lie outside its project's site, for the manager's review.
    mutating func review(_ record: inout Record) {
        guard record.kind == .timeEntry, let project = records[FieldID(record.projectId)] else { return }
        record.review = Geofence.review(entry: record.values, site: project.values)
    }
}
