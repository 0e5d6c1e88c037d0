package import Foundation
package import MusterEvents
import MusterLog
package import MusterPlatform

/// What managers do: put people on projects, approve time, decide conflicts, set the company's rules.
extension FieldSync {
    /// Puts `personId` (a person of the manager's company) on a project, or takes them off it.
    package func assign(_ personId: String, to projectId: String, _ assigned: Bool, by manager: FieldPerson, people: People) async throws {
        try manager.requireManager("assign people to projects")
        let (personId, projectId) = (personId.lowercased(), projectId.lowercased())
        try await requireRecord(projectId, .project, of: manager)
        guard let (account, _) = try await people.opened(personId), account.orgId == manager.orgId, FieldRoles.all.contains(account.role) else {
            throw FieldError(.notFound, "no worker or manager \(personId.prefix(40)) in your company")
        }
        try await decide(ProjectAssigned(projectId: projectId, orgId: manager.orgId, personId: personId, assigned: assigned,
                                         managerId: manager.personId), by: manager)
    }

    package func approve(entry entryId: String, by manager: FieldPerson) async throws {
        try manager.requireManager("approve time")
        let entryId = entryId.lowercased()
        try await requireRecord(entryId, .timeEntry, of: manager)
        try await decide(TimeEntryApproved(entryId: entryId, orgId: manager.orgId, managerId: manager.personId), by: manager)
    }

    /// Sends a time entry waiting for approval back to its worker, with why.
    package func reject(entry entryId: String, reason: String, by manager: FieldPerson) async throws {
        try manager.requireManager("reject time")
        let entryId = entryId.lowercased()
        try await requireRecord(entryId, .timeEntry, of: manager)
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...500).contains(reason.count) else { throw FieldError(.invalidField("reason"), "say why, in 1 to 500 characters") }
        guard await runner.read({ $0.record(entryId)?.approved == false }) else {
            throw FieldError(.invalidField("entryId"), "that time entry is approved already")
        }
        try await decide(TimeEntryRejected(entryId: entryId, orgId: manager.orgId, managerId: manager.personId, reason: reason), by: manager)
    }

    /// Decides an open conflict: keep the server's value, take the device's, or write `values`.
    package func resolve(_ conflictId: String, _ decision: ConflictResolved.Decision, values: [String: JSONValue]?, by manager: FieldPerson,
                        at now: Date) async throws {
        try manager.requireManager("resolve conflicts")
        let conflictId = conflictId.lowercased()
        guard let conflict = await runner.read({ $0.conflicts[conflictId] }), conflict.orgId == manager.orgId else {
            throw FieldError(.notFound, "no conflict \(conflictId.prefix(40)) in your company")
        }
        guard conflict.decision == nil else { throw FieldError(.invalidField("conflictId"), "that conflict was decided already") }
        if decision == .edit {
            guard let values, !values.isEmpty else { throw FieldError(.invalidField("values"), "edit needs the values to write") }
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                guard conflict.device[name] != nil, let rule = conflict.kind.fields[name] else {
                    throw FieldError(.invalidField("values.\(name.prefix(64))"), "the conflict is about \(conflict.device.keys.sorted().joined(separator: ", ")) only")
                }
                if let problem = rule.problem(with: value) { throw FieldError(.invalidField("values.\(name)"), "\(name) \(problem)") }
            }
        }
        try await decide(ConflictResolved(conflictId: conflictId, orgId: manager.orgId, managerId: manager.personId, decision: decision,
                                          values: decision == .edit ? values : nil, decidedAt: Timestamp.string(now)), by: manager)
    }

    /// The company's conflicts, the open ones first, newest first within each.
    package func conflicts(of person: FieldPerson, includeDecided: Bool) async throws -> [FieldBook.Conflict] {
        try person.requireManager("see conflicts")
        return await runner.read { book in
            book.conflicts.values.filter { $0.orgId == person.orgId && (includeDecided || $0.decision == nil) }
                .sorted { ($0.decision == nil ? 0 : 1, $1.sequence, $0.id) < ($1.decision == nil ? 0 : 1, $0.sequence, $1.id) }
        }
    }

    package func settings(of person: FieldPerson) async -> CompanySettings {
        await runner.read { $0.companies[person.orgId]?.settings ?? .standard }
    }

    package func configure(_ settings: CompanySettings, by manager: FieldPerson) async throws {
        try manager.requireManager("change the company's settings")
        do { try settings.validate() } catch let error as EventValidationError {
            throw FieldError(.invalidField(String(error.field.dropFirst("/settings/".count))), error.description)
        }
        try await decide(CompanyConfigured(orgId: manager.orgId, settings: settings), by: manager)
    }

    private func requireRecord(_ id: String, _ kind: EntityKind, of person: FieldPerson) async throws {
        guard (try? Validate.uuid(id, field: "")) != nil,
              await runner.read({ book in book.record(id).map { $0.kind == kind && $0.orgId == person.orgId && !$0.deleted } ?? false }) else {
            throw FieldError(.notFound, "no \(kind.rawValue) \(id.prefix(40)) in your company")
        }
    }
}

extension FieldSync {
    /// Whether `person` sees a record that names the photo or receipt `digest`.
    package func canRead(_ digest: String, _ person: FieldPerson) async -> Bool {
        await runner.read { book in
            guard book.storedFiles[person.orgId]?.contains(digest) == true else { return false }
            return (book.files[digest] ?? []).contains { id in
                guard let record = book.records[id], !record.deleted else { return false }
                return book.sees(record, personId: person.personId, orgId: person.orgId, role: person.role)
            }
        }
    }
}
