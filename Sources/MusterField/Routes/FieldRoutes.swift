import Foundation
import HTTPTypes
package import Hummingbird
import MusterEvents
import MusterJSON
package import MusterPlatform
package import MusterRuntime
import NIOCore

/// The field app under `/api/field/`, for signed-in workers and managers (`Authorization: Bearer`):
/// - sign-in under `/api/field/auth/…`, served by the platform from `FieldApp.accounts`;
/// - `POST /api/field/mutations`: a batch of offline changes, an outcome for each;
/// - `GET /api/field/changes?since=CURSOR&limit=N`: what changed since, a page at a time;
/// - `GET /api/field/live?since=CURSOR`: the same as it happens, over a WebSocket (`FieldLive`);
/// - `PUT|DELETE /api/field/projects/{projectId}/members/{personId}`: managers staff projects;
/// - `POST /api/field/time-entries/{entryId}/approve` and `…/reject` (with why): managers decide time;
/// - `GET /api/field/conflicts`, `POST /api/field/conflicts/{conflictId}/resolve`: managers decide conflicts;
/// - `GET|PUT /api/field/settings`: the company's important fields, how long deletions are remembered, its time zone;
/// - `GET /api/field/timesheet?week=2026-W48` (JSON) and `GET /api/field/timesheet.csv?week=…`.
package enum FieldRoutes {
    /// 500 mutations of up to a few hundred bytes each, with room.
    static let maxBody = 1 << 20
    static let maxSmallBody = 64 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, sync: FieldSync, people: People) {
        routes.post("/api/field/mutations", access: .fieldPerson) { request, context in
            let person = try person(context)
            let body = try await RequestJSON.decode(PushRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            let (outcomes, cursor) = try await sync.push(person, deviceId: body.deviceId, sentAt: body.sentAt,
                                                         mutations: body.mutations.map(\.mutation), received: Date())
            let results = zip(body.mutations, outcomes).map { PushAnswer.Result($0.mutationId, $1) }
            return try JSONResponse.make(.ok, PushAnswer(cursor: "\(cursor)", results: results), writtenBy: JSONBytesEncoder())
        }
        // Reached only when the WebSocket upgrade was not taken (`FieldLive`): say why.
        routes.get(FieldLive.path, access: .fieldPerson) { request, context -> Response in
            _ = try person(context)
            guard request.uri.queryParameters["since"].map({ PullCursor(String($0)) != nil }) ?? true else {
                throw FieldError(.invalidField("since"), "since must be a cursor from an earlier answer")
            }
            throw APIError(.init(code: 426, reasonPhrase: "Upgrade Required"), "this is a WebSocket: connect with Upgrade: websocket")
        }
        routes.get("/api/field/changes", access: .fieldPerson) { request, context in
            let person = try person(context)
            let query = request.uri.queryParameters
            guard let since = query["since"].map({ PullCursor(String($0)) }) ?? PullCursor(position: 0) else {
                throw FieldError(.invalidField("since"), "since must be a cursor from an earlier answer")
            }
            guard let limit = query["limit"].map({ Int(String($0)) }) ?? 500, (1...FieldBook.maxPage).contains(limit) else {
                throw FieldError(.invalidField("limit"), "limit must be 1 to \(FieldBook.maxPage)")
            }
            return try JSONResponse.make(.ok, PullAnswer(await sync.pull(person, since: since, limit: limit)), writtenBy: JSONBytesEncoder())
        }

        for (method, assigned) in [(HTTPRequest.Method.put, true), (.delete, false)] {
            routes.on(method, "/api/field/projects/{projectId}/members/{personId}", access: .person(FieldRole.manager)) { _, context in
                let manager = try person(context)
                try await sync.assign(try context.parameters.require("personId"), to: try context.parameters.require("projectId"), assigned,
                                      by: manager, people: people)
                return Response(status: .noContent)
            }
        }
        routes.post("/api/field/time-entries/{entryId}/approve", access: .person(FieldRole.manager)) { request, context in
            try await sync.approve(entry: try context.parameters.require("entryId"), by: try person(context))
            return Response(status: .noContent)
        }
        routes.post("/api/field/time-entries/{entryId}/reject", access: .person(FieldRole.manager)) { request, context in
            let body = try await RequestJSON.decode(RejectRequest.self, from: request, maxBody: maxSmallBody)
            try await sync.reject(entry: try context.parameters.require("entryId"), reason: body.reason, by: try person(context))
            return Response(status: .noContent)
        }
        routes.get("/api/field/conflicts", access: .person(FieldRole.manager)) { request, context in
            let status = request.uri.queryParameters["status"].map(String.init) ?? "open"
            guard status == "open" || status == "all" else {
                throw FieldError(.invalidField("status"), "status must be open or all")
            }
            let all = status == "all"
            let conflicts = try await sync.conflicts(of: try person(context), includeDecided: all)
            return try JSONResponse.make(.ok, ConflictsAnswer(conflicts: conflicts.map(ConflictBody.init)))
        }
        routes.post("/api/field/conflicts/{conflictId}/resolve", access: .person(FieldRole.manager)) { request, context in
            let manager = try person(context)
            let body = try await RequestJSON.decode(ResolveRequest.self, from: request, maxBody: maxSmallBody, allowNulls: true)
            try await sync.resolve(try context.parameters.require("conflictId"), body.decision, values: body.values, by: manager, at: Date())
            return Response(status: .noContent)
        }
        routes.get("/api/field/settings", access: .fieldPerson) { request, context in
            try JSONResponse.make(.ok, await sync.settings(of: try person(context)))
        }
        routes.put("/api/field/settings", access: .person(FieldRole.manager)) { request, context in
            let manager = try person(context)
            let settings = try await RequestJSON.decode(CompanySettings.self, from: request, maxBody: maxSmallBody)
            try await sync.configure(settings, by: manager)
            return try JSONResponse.make(.ok, settings)
        }
        routes.get("/api/field/timesheet", access: .fieldPerson) { request, context in
            let person = try person(context)
            return try JSONResponse.make(.ok, try await timesheet(of: person, week: try week(request), sync: sync, people: people))
        }
        routes.get("/api/field/timesheet.csv", access: .fieldPerson) { request, context in
            let person = try person(context)
            return timesheetCSV(try await timesheet(of: person, week: try week(request), sync: sync, people: people))
        }
    }

    /// The week's timesheet as a CSV download (the app's route and the managers' console).
    static func timesheetCSV(_ answer: TimesheetAnswer) -> Response {
        var text = CSVRow.line(["week", "worker", "person_id", "project", "project_id", "entry_id", "start", "end", "hours", "approved", "review"])
        for e in answer.entries {
            text += CSVRow.line([answer.week, e.personName, e.personId, e.projectName, e.projectId, e.entryId, e.start, e.end ?? "",
                                 e.hours.map { String(format: "%.2f", $0) } ?? "", e.approved ? "yes" : "no", e.review.joined(separator: "; ")])
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8; header=present"
        headers[.contentDisposition] = "attachment; filename=\"timesheet-\(answer.week).csv\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The signed-in worker or manager of a field company, as the route's rule admitted them.
    static func person(_ context: MusterRequestContext) throws -> FieldPerson {
        let person = try context.person()
        return FieldPerson(personId: person.personId, orgId: person.org, role: person.role)
    }

    /// The week's timesheet with each worker's name.
    static func timesheet(of person: FieldPerson, week: ISOWeek?, sync: FieldSync, people: People) async throws -> TimesheetAnswer {
        let timesheet = await sync.timesheet(of: person, week: week)
        let entries = timesheet.entries
        var names: [String: String] = [:]
        for id in Set(entries.map(\.personId)) {
            if let (_, personal) = try await people.opened(id) { names[id] = "\(personal.firstName) \(personal.lastName)" }
        }
        return TimesheetAnswer(timesheet, names: names)
    }

    /// The week asked for; nil for this week (in the company's zone).
    static func week(_ request: Request) throws -> ISOWeek? {
        guard let text = request.uri.queryParameters["week"] else { return nil }
        guard let week = ISOWeek(String(text)) else { throw FieldError(.invalidField("week"), "week must be an ISO week, like 2026-W48") }
        return week
    }
}
