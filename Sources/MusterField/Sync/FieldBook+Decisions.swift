import MusterEvents

/// What managers decide, and the forgetting of old tombstones.
extension FieldBook {
    package mutating func apply(_ assigned: ProjectAssigned, sequence: UInt64) {
        var company = companies[assigned.orgId, default: Company()]
        if assigned.assigned {
            company.members[assigned.projectId, default: []].insert(assigned.personId)
        } else {
            company.members[assigned.projectId]?.remove(assigned.personId)
        }
        company.resets[assigned.personId] = sequence
        companies[assigned.orgId] = company
    }

    package mutating func apply(_ approved: TimeEntryApproved, sequence: UInt64) {
        guard var record = records[FieldID(approved.entryId)], record.kind == .timeEntry, record.orgId == approved.orgId,
              !record.deleted, !record.approved else { return }
        record.approved = true
        record.rejection = nil
        record.version += 1
        touched(&record, at: sequence)
    }

    package mutating func apply(_ rejected: TimeEntryRejected, sequence: UInt64) {
        guard var record = records[FieldID(rejected.entryId)], record.kind == .timeEntry, record.orgId == rejected.orgId,
              !record.deleted, !record.approved else { return }
        record.rejection = rejected.reason
        record.version += 1
        touched(&record, at: sequence)
    }

    package mutating func apply(_ resolved: ConflictResolved, sequence: UInt64) {
        guard var conflict = conflicts[resolved.conflictId], conflict.orgId == resolved.orgId, conflict.decision == nil,
              var record = records[FieldID(conflict.recordId)], !record.deleted, let at = Timestamp.millis(resolved.decidedAt) else { return }
        let values: [String: JSONValue] = switch resolved.decision {
        case .keepServer: [:]
        case .takeDevice: conflict.device
        case .edit: (resolved.values ?? [:]).filter { conflict.device[$0.key] != nil }
        }
        let stamp = Stamp(at: max(at, record.fields.values.map(\.stamp.at).max() ?? at), device: "manager:" + resolved.managerId)
        var wrote = false
        for (name, value) in values where record.fields[name]?.value != value && record.kind.fields[name]?.problem(with: value) == nil {
            record.fields[name] = Field(value: value, stamp: stamp, version: record.version + 1)
            wrote = true
        }
        if wrote {
            record.version += 1
            review(&record)
            touched(&record, at: sequence)
        }
        conflict.decision = resolved.decision
        conflict.decidedBy = resolved.managerId
        conflicts[resolved.conflictId] = conflict
    }

    package mutating func apply(_ configured: CompanyConfigured) {
        companies[configured.orgId, default: Company()].settings = configured.settings
    }

    /// Forgets, once a day of log time, the tombstones and kept outcomes older than each company's
    /// `tombstoneDays`, and drops stale entries from the change order. A device whose cursor is
    /// older than what was forgotten resyncs from scratch.
    package mutating func forgetOld(now: Int64) {
        let day: Int64 = 86_400_000
        // Folded on every event: only the companies whose day has come are looked at, in a fixed order.
        let due = companies.compactMap { now - $0.value.lastPurge >= day ? $0.key : nil }
        guard !due.isEmpty else { return }
        for orgId in due.sorted() {
            guard var company = companies[orgId] else { continue }
            company.lastPurge = now
            let horizon = now - Int64(company.settings.tombstoneDays) * day
            for change in company.changes {
                guard let record = records[change.recordId], record.sequence == change.sequence, record.deleted,
                      let deletedAt = record.deletedAt, deletedAt < horizon else { continue }
                records[change.recordId] = nil
                for digest in record.files { unfile(digest, change.recordId) }
                company.purgedThrough = max(company.purgedThrough, change.sequence)
            }
            company.changes.removeAll { records[$0.recordId]?.sequence != $0.sequence }
            companies[orgId] = company
        }
        // Outcomes are looked at with the tombstones (at most daily), not on every event: there are many.
        let oldest = companies.values.map { now - Int64($0.settings.tombstoneDays) * day }.min() ?? now
        outcomes.forget(before: oldest)
    }
}
