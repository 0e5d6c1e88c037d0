import Foundation
import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime

/// What the managers' console pages show, read from the field fold and the people fold. Names
/// come from each person's sealed data, opened for the page and never kept.
struct FieldConsoleViews: Sendable {
    let sync: FieldSync
    let people: People

    struct Entry: Sendable {
        let id: String
        let worker: String
        let project: String
        let start: String
        let end: String
        let hours: String
        let review: [String]
        let flagged: Bool
        /// Why a manager sent it back; nil while it is not.
        let sentBack: String?
    }

    struct Approvals: Sendable {
        let entries: [Entry]
        let count: Int
        let one: Bool
        /// nil for none (Mustache shows a section for 0).
        let flagged: Int?
        let week: String
    }

    func approvals(_ manager: FieldPerson) async -> Approvals {
        let records = await sync.runner.read { book in
            book.records.values.filter { $0.kind == .timeEntry && $0.orgId == manager.orgId && !$0.deleted && !$0.approved }
                .sorted { (text($0.values["startTime"]), $0.id) < (text($1.values["startTime"]), $1.id) }
                .map { ($0, book.record($0.projectId).map { text($0.values["name"]) } ?? "?") }
        }
        var names = NameBook(people: people)
        var entries: [Entry] = []
        for (record, project) in records {
            let start = text(record.values["startTime"]), end = text(record.values["endTime"])
            let hours = Timestamp.millis(start).flatMap { s in Timestamp.millis(end).map { e in String(format: "%.2f", Double(e - s) / 3_600_000) } } ?? ""
            entries.append(Entry(id: record.id, worker: await names.name(record.ownerId), project: project, start: start,
                                 end: end.isEmpty ? "still on the clock" : end, hours: hours, review: record.review, flagged: !record.review.isEmpty, sentBack: record.rejection))
        }
        return Approvals(entries: entries, count: entries.count, one: entries.count == 1, flagged: entries.contains(where: \.flagged) ? entries.filter(\.flagged).count : nil, week: ISOWeek(containing: Timestamp.millis(Date())).description)
    }

    struct Conflict: Sendable {
        struct Row: Sendable {
            let field: String
            let server: String
            /// Who wrote the server's value, and when: a manager's decision, or a device.
            let serverBy: String
            let device: String
        }

        let id: String
        let what: String
        let who: String
        let device: String
        let when: String
        let rows: [Row]
    }

    struct Conflicts: Sendable { let conflicts: [Conflict] }

    func conflicts(_ manager: FieldPerson) async throws -> Conflicts {
        var names = NameBook(people: people)
        var shown: [Conflict] = []
        for conflict in try await sync.conflicts(of: manager, includeDecided: false) {
            let (name, stamps) = await sync.runner.read { book in
                (book.record(conflict.recordId).map { text($0.values["name"]) } ?? "", book.record(conflict.recordId)?.fields.mapValues(\.stamp) ?? [:])
            }
            var rows: [Conflict.Row] = []
            for field in conflict.device.keys.sorted() {
                var by = "—"
                if let stamp = stamps[field] {
                    let who = stamp.device.hasPrefix("manager:") ? "a manager's decision (\(await names.name(String(stamp.device.dropFirst(8)))))"
                        : "device \(stamp.device.prefix(8))"
                    by = "\(who), \(Timestamp.string(millis: stamp.at, fraction: false))"
                }
                rows.append(Conflict.Row(field: field, server: text(conflict.server[field]), serverBy: by, device: text(conflict.device[field])))
            }
            shown.append(Conflict(id: conflict.id, what: "\(conflict.kind.rawValue) \(name.isEmpty ? conflict.recordId : name)",
                                  who: await names.name(conflict.personId), device: conflict.deviceId,
                                  when: Timestamp.string(millis: conflict.stamp.at, fraction: false), rows: rows))
        }
        return Conflicts(conflicts: shown)
    }

    struct Project: Sendable {
        struct Member: Sendable {
            let personId: String
            let name: String
        }

        let id: String
        let version: Int
        let name: String
        // Optional: an empty value is no section in a template (Mustache takes "" as true).
        let address: String?
        let latitude: String?
        let longitude: String?
        let radiusMeters: String?
        let startDate: String?
        let endDate: String?
        let members: [Member]
        /// The company's people not on the project: whom the crew form offers.
        let others: [Member]
    }

    struct Projects: Sendable {
        let projects: [Project]
        let draft: FieldConsoleForm?
    }

    func projects(_ manager: FieldPerson, draft: FieldConsoleForm? = nil) async -> Projects {
        let records = await sync.runner.read { book in
            book.records.values.filter { $0.kind == .project && $0.orgId == manager.orgId && !$0.deleted }.sorted { text($0.values["name"]) < text($1.values["name"]) }
        }
        return Projects(projects: records.map { project($0, members: [], others: []) }, draft: draft)
    }

    func project(_ id: String, _ manager: FieldPerson) async throws -> Project {
        let id = id.lowercased()
        guard let (record, members) = await sync.runner.read({ book -> (FieldBook.Record, Set<String>)? in
            guard let record = book.record(id), record.kind == .project, record.orgId == manager.orgId, !record.deleted else { return nil }
            return (record, book.companies[manager.orgId]?.members[id] ?? [])
        }) else { throw FieldError(.notFound, "no project \(id.prefix(40)) in your company") }
        var names = NameBook(people: people)
        let company = await people.runner.read { state in
            state.accounts.values.filter { $0.orgId == manager.orgId && FieldRoles.all.contains($0.role) }.map(\.personId)
        }
        var on: [Project.Member] = [], off: [Project.Member] = []
        for personId in Set(company).union(members).sorted() {
            let member = Project.Member(personId: personId, name: await names.name(personId))
            if members.contains(personId) { on.append(member) } else { off.append(member) }
        }
        return project(record, members: on.sorted { $0.name < $1.name }, others: off.sorted { $0.name < $1.name })
    }

    func project(_ record: FieldBook.Record, members: [Project.Member], others: [Project.Member]) -> Project {
        let v = record.values
        func given(_ name: String) -> String? { let t = text(v[name]); return t.isEmpty ? nil : t }
        return Project(id: record.id, version: record.version, name: text(v["name"]), address: given("address"), latitude: given("latitude"),
                       longitude: given("longitude"), radiusMeters: given("radiusMeters"), startDate: given("startDate"),
                       endDate: given("endDate"), members: members, others: others)
    }

    /// Creates or changes a project as a phone would (a mutation through `FieldSync.push`); the
    /// refusal to show, if any.
    func save(_ form: FieldConsoleForm, project id: String, baseVersion: Int, by manager: FieldPerson) async throws -> String? {
        var fields: [String: JSONValue] = [:]
        func put(_ name: String, _ value: String?, number: Bool = false) -> String? {
            let trimmed = value?.trimmingCharacters(in: .whitespaces) ?? ""
            if trimmed.isEmpty { fields[name] = name == "name" ? nil : .null; return nil }
            if number {
                guard let n = Double(trimmed), n.isFinite else { return "\(name) must be a number" }
                fields[name] = .number(n)
            } else {
                fields[name] = .string(trimmed)
            }
            return nil
        }
        let problems = [put("name", form.name), put("address", form.address), put("latitude", form.latitude, number: true),
                        put("longitude", form.longitude, number: true), put("radiusMeters", form.radiusMeters, number: true),
                        put("startDate", form.startDate), put("endDate", form.endDate)].compactMap { $0 }
        if let problem = problems.first { return problem }
        if baseVersion == 0 { fields = fields.filter { $0.value != .null } }
        let now = Date()
        let mutation = FieldMutation(mutationId: SecureRandom.uuidString(), entity: .project, id: id, baseVersion: baseVersion,
                                     fields: fields, changedAt: Timestamp.string(now))
        let incoming: FieldSync.Incoming
        do { try mutation.validate(within: ""); incoming = .success(mutation) } catch let error as EventValidationError {
            return error.description
        }
        // The console is one more device of the manager's: its id is fixed per manager.
        let device = FieldConsoleViews.deviceId(of: manager.personId)
        let (outcomes, _) = try await sync.push(manager, deviceId: device, sentAt: Timestamp.string(now), mutations: [incoming], received: now)
        switch outcomes.first {
        case .refused(let reason)?: return reason
        case .conflict?: return "Someone changed this project meanwhile; a conflict is waiting on the Conflicts page."
        default: return nil
        }
    }

    /// The console as a device of the manager's: named by the manager's own id (a UUID), so its
    /// changes are told apart from their phone's and retried ones are applied once.
    static func deviceId(of personId: String) -> String {
        (try? Validate.uuid(personId, field: "")) != nil ? personId : SecureRandom.uuidString()
    }

    struct Crew: Sendable {
        struct Member: Sendable {
            let name: String
            let email: String
            let role: String
            let projects: String
        }

        let members: [Member]
    }

    /// The company's workers and managers, with the projects each is on.
    func crew(_ manager: FieldPerson) async -> Crew {
        let ids = await people.runner.read { state in
            state.people.filter { $0.value.orgId == manager.orgId && !$0.value.forgotten && FieldRoles.all.contains($0.value.role) }.keys.sorted()
        }
        let (members, names) = await sync.runner.read { book -> ([String: Set<String>], [String: String]) in
            let members = book.companies[manager.orgId]?.members ?? [:]
            var names: [String: String] = [:]
            for projectId in members.keys { names[projectId] = book.record(projectId).map { text($0.values["name"]) } ?? projectId }
            return (members, names)
        }
        var shown: [Crew.Member] = []
        for id in ids {
            guard let (account, personal) = try? await people.opened(id) else { continue }
            let on = members.filter { $0.value.contains(id) }.keys.compactMap { names[$0] }.sorted()
            shown.append(.init(name: "\(personal.firstName) \(personal.lastName)", email: personal.email, role: account.role,
                               projects: on.isEmpty ? "no project" : on.joined(separator: ", ")))
        }
        return Crew(members: shown.sorted { ($0.role, $0.name) < ($1.role, $1.name) })
    }

    struct Change: Sendable {
        let what: String
        let who: String
        let version: Int
        let sequence: UInt64
    }

    struct Activity: Sendable {
        let changes: [Change]
    }

    func activity(_ manager: FieldPerson) async -> Activity {
        let records = await sync.runner.read { book in
            book.records.values.filter { $0.orgId == manager.orgId }.sorted { $0.sequence > $1.sequence }.prefix(30).map { $0 }
        }
        var names = NameBook(people: people)
        var changes: [Change] = []
        for record in records {
            let label = text(record.values["name"]).isEmpty ? text(record.values["startTime"]) : text(record.values["name"])
            changes.append(Change(what: "\(record.kind.rawValue) \(label)\(record.deleted ? " (deleted)" : "")", who: await names.name(record.ownerId),
                                  version: record.version, sequence: record.sequence))
        }
        return Activity(changes: changes)
    }
}

/// People's names for one page, each opened once.
struct NameBook {
    let people: People
    var names: [String: String] = [:]

    init(people: People) { self.people = people }

    mutating func name(_ personId: String) async -> String {
        if let known = names[personId] { return known }
        let opened = (try? await people.opened(personId)).flatMap { $0.map { "\($0.1.firstName) \($0.1.lastName)" } } ?? "someone who left"
        names[personId] = opened
        return opened
    }
}

/// A field's value as the page shows it.
func text(_ value: JSONValue?) -> String {
    switch value {
    case .string(let s)?: s
    case .integer(let n)?: "\(n)"
    case .number(let n)?: n == n.rounded() && abs(n) < 1e15 ? "\(Int64(n))" : "\(n)"
    case .bool(let b)?: b ? "yes" : "no"
    case .null?, nil: ""
    case .array?, .object?: "…"
    }
}
