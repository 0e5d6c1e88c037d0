import HTTPTypes
package import Hummingbird
import MusterEvents
import MusterPlatform
package import MusterRuntime

/// `POST /api/push` (ingest) asks for a push to devices, people, topics or a whole app, now, at
/// an instant or at a local time, or only says whom it would reach (`dryRun`);
/// `GET /api/push/{pushId}` (query) gives the counts by outcome. Both take a key with `push:send`.
package enum PushRoutes {
    package static let scope = "push:send"
    static let maxBody = 64 * 1024

    /// Any app's key with `push:send`: what it sends to is its own app's (an operator's, the app it names).
    static let access = AccessRule.key(nil, scope: scope)

    package static func addSend(to routes: Routes<Router<MusterRequestContext>>, pushes: Pushes) {
        routes.post("/api/push", access: access) { request, context in
            let client = try context.key()
            let body = try await RequestJSON.decode(PushRequestBody.self, from: request, maxBody: maxBody)
            let key = request.headers[.idempotencyKey]
            if let key, !(1...200).contains(key.count) { throw APIError(.badRequest, "Idempotency-Key must be 1 to 200 characters") }
            let push = try await makeRequest(body, client: client, pushes: pushes, idempotencyKey: key)
            let reach = try await pushes.check(push)
            if body.dryRun == true {
                return try JSONResponse.make(.ok, DryRunAnswer(targeted: reach.targeted, ios: reach.ios, android: reach.android,
                                                               payloadBytes: reach.payloadBytes))
            }
            try await pushes.request(push, idempotencyKey: key)
            return try JSONResponse.make(.accepted, PushAccepted(pushId: push.pushId, status: push.schedule == nil ? "queued" : "scheduled",
                                                                 targeted: reach.targeted))
        }
    }

    package static func addStatus(to routes: Routes<Router<MusterRequestContext>>, reports: PushReports) {
        routes.get("/api/push/{pushId}", access: access) { _, context in
            let push = try await reports.status(try context.parameters.require("pushId"), for: context.principal)
            return try JSONResponse.make(.ok, PushStatusAnswer(push))
        }
    }

    static func makeRequest(_ body: PushRequestBody, client: AuthenticatedClient, pushes: Pushes,
                            idempotencyKey: String?) async throws -> PushRequested {
        let app: String
        if client.isOperator {
            guard let named = body.app else { throw PushError(.invalidField("app"), "app is required with an operator's key") }
            app = named
        } else {
            guard body.app == nil || body.app == client.app else { throw PushError(.invalidField("app"), "this key sends to \(client.app) only") }
            app = client.app
        }
        let given = body.audience
        var audience = PushAudience(deviceIds: given.deviceIds, personIds: given.personIds, topics: given.topics, everyone: given.everyone)
        if let tokens = given.tokens {
            guard audience == PushAudience() else {
                throw PushError(.invalidField("audience"), "audience must name exactly one of tokens, deviceIds, personIds, topics or everyone")
            }
            audience.deviceIds = try await pushes.deviceIDs(forTokens: tokens, app: app)
        }
        var schedule: PushSchedule?
        if body.sendAt != nil || body.localTime != nil { schedule = PushSchedule(at: body.sendAt, localTime: body.localTime) }
        let message = PushMessage(title: body.title, body: body.body, screen: body.screen, id: body.id, imageUrl: body.imageUrl,
                                  sound: body.sound, badge: body.badge)
        return PushRequested(pushId: Pushes.pushID(requestedBy: client.id, idempotencyKey: idempotencyKey), app: app, audience: audience,
                             message: message, collapseId: body.collapseId, expiresAt: body.expiresAt,
                             priority: body.priority ?? (body.background == true ? "normal" : "high"),
                             schedule: schedule, requestedBy: client.id, background: body.background)
    }
}
