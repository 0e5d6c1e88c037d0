import Foundation
package import Hummingbird
import MusterLog
package import MusterRuntime
import NIOFoundationEssentialsCompat

/// The moderators' JSON API under `/api/moderation`, for keys with `moderate:opl`. Every decision
/// is an event naming the moderator (the key) and the reason.
package enum ModerationRoutes {
    struct Decided: ResponseEncodable {
        var success = true
        var id: String
        var decision: String
        var sequence: UInt64
    }

    static let access = AccessRule.key(OPLScopes.app, scope: OPLScopes.moderate)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, desk: ModerationDesk) {
        let api = routes.group("/api/moderation")
        api.get("/queue", access: access) { request, _ in
            let filter = try queueFilter(QueryParameters(request))
            return JSONResponseBody(await desk.runner.read { ModerationQueue(state: $0, filter: filter) })
        }
        api.get("/actions/:id", access: access) { _, context in
            JSONResponseBody(try await desk.action(try context.parameters.require("id")))
        }
        api.get("/snapshots/:id", access: access) { _, context in
            JSONResponseBody(try await desk.snapshot(try context.parameters.require("id")))
        }
        api.post("/actions/:id/:decision", access: access) { request, context in
            let id = try context.parameters.require("id")
            let decision = try context.parameters.require("decision")
            let moderator = try context.key().id
            let body = try await request.body.collect(upTo: 256 * 1024)
            try RequestJSON.refuseControlCharacters(body)
            let decoder = JSONDecoder()
            let empty = body.readableBytes == 0
            let sequence: UInt64
            switch decision {
            case "approve": sequence = try await desk.approve(id, edits: empty ? ApproveEdits() : decoder.decode(ApproveEdits.self, from: body), moderator: moderator)
            case "reject": sequence = try await desk.reject(id, try decoder.decode(DecisionRequest.self, from: body), moderator: moderator)
            case "reopen": sequence = try await desk.reopen(id, try decoder.decode(DecisionRequest.self, from: body), moderator: moderator)
            case "merge": sequence = try await desk.merge(id, try decoder.decode(DecisionRequest.self, from: body), moderator: moderator)
            case "end": sequence = try await desk.end(id, try decoder.decode(DecisionRequest.self, from: body), moderator: moderator)
            case "extend": sequence = try await desk.extend(id, try decoder.decode(DecisionRequest.self, from: body), moderator: moderator)
            default: throw APIError(.notFound, "no decision \(decision.prefix(40)); use approve, reject, reopen, merge, end or extend")
            }
            return try JSONResponse.make(.ok, Decided(id: id, decision: decision, sequence: sequence))
        }
        api.post("/snapshots/:id/:decision", access: access) { request, context in
            let id = try context.parameters.require("id")
            let decision = try context.parameters.require("decision")
            let moderator = try context.key().id
            let body = try await request.body.collect(upTo: 64 * 1024)
            try RequestJSON.refuseControlCharacters(body)
            let empty = body.readableBytes == 0
            let sequence: UInt64
            switch decision {
            case "approve": sequence = try await desk.approveSnapshot(id, empty ? SnapshotApproval() : JSONDecoder().decode(SnapshotApproval.self, from: body), moderator: moderator)
            case "reject": sequence = try await desk.rejectSnapshot(id, try JSONDecoder().decode(DecisionRequest.self, from: body), moderator: moderator)
            default: throw APIError(.notFound, "no decision \(decision.prefix(40)); use approve or reject")
            }
            return try JSONResponse.make(.ok, Decided(id: id, decision: decision, sequence: sequence))
        }
    }

    static func queueFilter(_ query: QueryParameters) throws -> ModerationQueue.Filter {
        var filter = ModerationQueue.Filter()
        if let status = query.string("status"), !status.isEmpty {
            let allowed = ["pending", "all"] + OPLProjection.Action.Status.allCases.map(\.rawValue)
            guard allowed.contains(status) else { throw APIError(.badRequest, "status must be one of \(allowed.joined(separator: ", "))") }
            filter.status = status
        }
        if let kind = query.string("kind"), !kind.isEmpty {
            guard kind == "action" || kind == "snapshot" else { throw APIError(.badRequest, "kind must be action or snapshot") }
            filter.kind = kind
        }
        if let flag = query.string("flag"), !flag.isEmpty {
            guard ModerationFlag.codes.contains(flag) else {
                throw APIError(.badRequest, "flag must be one of \(ModerationFlag.codes.sorted().joined(separator: ", "))")
            }
            filter.flag = flag
        }
        if let text = query.string("q"), !text.isEmpty { filter.text = String(text.prefix(200)) }
        return filter
    }
}

/// Any `Encodable` as a JSON answer with the shared encoder.
struct JSONResponseBody<Value: Encodable & Sendable>: ResponseGenerator {
    var value: Value
    init(_ value: Value) { self.value = value }
    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse.make(.ok, value)
    }
}
