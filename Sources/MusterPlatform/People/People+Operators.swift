import Foundation
import MusterEvents
import MusterLog
import MusterRuntime

/// What an operator does to a person besides adding and forgetting them: another role of their
/// organisation's app, or no signing in for a while. Each ends the person's live sessions, so no
/// token issued before the change goes on acting with what it said.
extension People {
    package func reassign(_ personId: String, role: String, by: String) async throws {
        guard let (person, org) = await runner.read({ state in state.people[personId].flatMap { p in state.orgs[p.orgId].map { (p, $0) } } }),
              !person.forgotten else {
            throw AccountError(.unknownPerson, "no person \(personId.prefix(40))")
        }
        guard apps.roles(of: org.app).contains(role) else {
            throw AccountError(.invalidField("role"), "\(role.prefix(40)) is not a role of \(org.app): \(apps.roles(of: org.app).sorted().joined(separator: ", "))")
        }
        guard person.role != role else { return }
        try await appendThenEndSessions(PersonReassigned(personId: personId, role: role, by: by), personId: personId, reason: "reassigned", by: by)
    }

    package func suspend(_ personId: String, reason: String, by: String) async throws {
        guard let person = await runner.read({ $0.people[personId] }), !person.forgotten else {
            throw AccountError(.unknownPerson, "no person \(personId.prefix(40))")
        }
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...500).contains(reason.count) else { throw AccountError(.invalidField("reason"), "say why, in 1 to 500 characters") }
        try await appendThenEndSessions(PersonSuspended(personId: personId, reason: reason, by: by), personId: personId, reason: "suspended", by: by)
    }

    package func reinstate(_ personId: String, by: String) async throws {
        guard let person = await runner.read({ $0.people[personId] }), !person.forgotten else {
            throw AccountError(.unknownPerson, "no person \(personId.prefix(40))")
        }
        guard person.suspended != nil else { return }
        let result = try await log.append(PersonReinstated(personId: personId, by: by), options: AppendOptions(actor: by))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
    }

    private func appendThenEndSessions(_ event: some EventPayload, personId: String, reason: String, by: String) async throws {
        var last = try await log.append(event, options: AppendOptions(actor: by)).sequence
        let sessions = await runner.read { state in state.sessions.filter { $0.value.personId == personId && $0.value.revokedReason == nil }.keys }
        for sessionId in sessions.sorted() {
            last = try await log.append(SessionRevoked(sessionId: sessionId, reason: reason), options: AppendOptions(actor: by)).sequence
        }
        _ = await runner.waitUntilApplied(last, timeout: Self.settle)
    }
}
