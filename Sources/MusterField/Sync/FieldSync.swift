import Crypto
package import Foundation
package import MusterEvents
package import MusterLog
package import MusterRuntime
import MusterJSON

/// Why a field request was refused, in domain terms; `FieldErrorCode+HTTP` gives the answers.
package typealias FieldError = DomainError<FieldErrorCode>

package enum FieldErrorCode: Sendable, Hashable {
    /// A field of the request breaks its rule; the field as the request names it.
    case invalidField(String)
    /// Signed in, but not allowed this (a worker approving time, say).
    case forbidden
    /// What the request names does not exist, or is not the person's to see.
    case notFound
    /// Stored, but the read model has not caught up yet: the same request answers in a moment.
    case notReady
    /// An upload larger than the server takes.
    case tooLarge
    /// An append at another offset than the server holds (it holds this many bytes).
    case offsetMismatch(Int)
}

/// Who is asking: a signed-in person of a field company.
package struct FieldPerson: Sendable, Equatable {
    package var personId: String
    package var orgId: String
    package var role: String

    package init(personId: String, orgId: String, role: String) {
        self.personId = personId
        self.orgId = orgId
        self.role = role
    }

    /// The person as `Access.permits` compares them with an owner.
    package var principal: Principal { .person(app: FieldRole.app, org: orgId, personId: personId, role: role) }

    package var isManager: Bool { FieldRole(rawValue: role) == .manager }

    func requireManager(_ what: String) throws {
        guard isManager else { throw FieldError(.forbidden, "only managers \(what)") }
    }
}

/// The field app's sync: a device's offline changes are checked one by one, their times put on
/// the server's clock, and stored as one event; the fold decides each change's outcome in log
/// order, and the answer reports it. Pulls page through what changed since a cursor.
package struct FieldSync: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<FieldProjection>
    /// Who is connected live here (urgent changes go to the others as pushes).
    let presence: FieldPresence
    static let settle: Duration = .seconds(5)

    package init(log: EventLog, runner: ProjectionRunner<FieldProjection>, presence: FieldPresence = FieldPresence()) {
        self.log = log
        self.runner = runner
        self.presence = presence
    }

    /// One mutation as the device sent it: read, or why it could not be read.
    package typealias Incoming = Result<FieldMutation, EventValidationError>

    /// Stores the batch's acceptable mutations as one event and answers each mutation's outcome,
    /// in the batch's order (a retried batch stores nothing new and gets the same answers).
    package func push(_ person: FieldPerson, deviceId: String, sentAt: String, mutations: [Incoming], received: Date) async throws
        -> (outcomes: [FieldBook.Outcome], cursor: UInt64) {
        let deviceId = deviceId.lowercased()
        guard (try? Validate.uuid(deviceId, field: "")) != nil else { throw FieldError(.invalidField("deviceId"), "deviceId must be a UUID") }
        guard let clock = EventClock(sentAt: sentAt, receivedMillis: Timestamp.millis(received)) else {
            throw FieldError(.invalidField("sentAt"), "sentAt must be an RFC 3339 date-time, like 2026-11-25T14:00:05Z")
        }
        guard (1...MutationsPushed.maxMutations).contains(mutations.count) else {
            throw FieldError(.invalidField("mutations"), "mutations must have 1 to \(MutationsPushed.maxMutations) items")
        }
        var refusals: [Int: String] = [:], kept: [FieldMutation] = []
        for (i, incoming) in mutations.enumerated() {
            switch incoming.flatMap({ Self.corrected($0, clock: clock, field: "mutations.\(i)") }) {
            case .success(let mutation): kept.append(mutation)
            case .failure(let problem): refusals[i] = problem.description
            }
        }
        var cursor: UInt64 = 0, outcomes: [FieldBook.Outcome?] = []
        if !kept.isEmpty {
            let pushed = MutationsPushed(deviceId: deviceId, personId: person.personId, orgId: person.orgId, role: person.role, checked: kept)
            let key = Self.key(person, device: deviceId, kept.map(\.mutationId))
            let result = try await log.append(pushed, options: AppendOptions(idempotencyKey: key, actor: "person:\(person.personId)"))
            guard await runner.waitUntilApplied(result.sequence, timeout: Self.settle) else {
                throw FieldError(.notReady, "the changes are stored; send the same batch again for their outcomes")
            }
            let (personKey, deviceKey) = (FieldID(person.personId), FieldID(deviceId))
            (cursor, outcomes) = await runner.readWithCheckpoint { checkpoint, book in
                (checkpoint, kept.map { book.outcome(person: personKey, device: deviceKey, mutation: $0.mutationId) })
            }
            if person.isManager { await announceUrgent(kept, outcomes: outcomes, by: person, sequence: result.sequence) }
        }
        var keptIndex = 0
        return (mutations.indices.map { i in
            if let refusal = refusals[i] { return .refused(refusal) }
            defer { keptIndex += 1 }
            return (keptIndex < outcomes.count ? outcomes[keptIndex] : nil) ?? .refused("not decided; send it again")
        }, cursor)
    }

    /// The mutation with its ids in lowercase and its time on the server's clock, or why it cannot be stored.
    static func corrected(_ mutation: FieldMutation, clock: EventClock, field: String) -> Result<FieldMutation, EventValidationError> {
        var mutation = mutation
        mutation.mutationId = lowercased(mutation.mutationId)
        mutation.id = lowercased(mutation.id)
        // Written back only when it changes: the fields are shared with the caller's copy until then.
        if case .string(let project)? = mutation.fields["projectId"], case let lower = lowercased(project), lower != project {
            mutation.fields["projectId"] = .string(lower)
        }
        guard let device = Timestamp.millis(mutation.changedAt) else {
            return .failure(EventValidationError(field: field + ".changedAt", "must be an RFC 3339 date-time"))
        }
        if let problem = clock.problem(with: device) { return .failure(EventValidationError(field: field + ".changedAt", problem)) }
        mutation.changedAt = Timestamp.string(millis: clock.correct(device))
        do {
            try mutation.validate(within: field)
            return .success(mutation)
        } catch let error as EventValidationError {
            return .failure(error)
        } catch {
            return .failure(EventValidationError(field: field, "\(error)"))
        }
    }

    /// `text` in lowercase: itself when it is ASCII without capitals (as a device that writes its
    /// ids in lowercase sends them all), so that no new string is made for each id of a batch.
    static func lowercased(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? text : text.lowercased()
    }

    /// The batch's idempotency key: its person, device and mutation ids (a retry, whatever its order).
    static func key(_ person: FieldPerson, device: String, _ ids: [String]) -> String {
        let digest = SHA256.hash(data: Data(ids.sorted().joined(separator: ",").utf8))
        return "field-push:\(person.personId):\(device):" + Hex.lowercase(digest.prefix(16))
    }

    /// What changed for `person` since `cursor`: one page.
    package func pull(_ person: FieldPerson, since cursor: PullCursor, limit: Int) async -> PullPage {
        await runner.readWithCheckpoint { checkpoint, book in
            book.page(personId: person.personId, orgId: person.orgId, role: person.role, since: cursor, limit: limit, checkpoint: checkpoint)
        }
    }

    /// Records that `person` uploaded the file within their company, and waits until the fold has
    /// it, so the record the device pushes next may name it.
    package func stored(_ digest: String, size: Int, type: String, by person: FieldPerson) async throws {
        try await decide(FileStored(digest: digest, orgId: person.orgId, personId: person.personId, size: size, type: type), by: person)
    }

    /// Appends a manager's decision and waits until the fold has it.
    func decide(_ payload: some EventPayload, by person: FieldPerson) async throws {
        let result = try await log.append(payload, options: AppendOptions(actor: "person:\(person.personId)"))
        guard await runner.waitUntilApplied(result.sequence, timeout: Self.settle) else {
            throw FieldError(.notReady, "stored; it shows in a moment")
        }
    }
}
