import Foundation
import HTTPTypes
package import Hummingbird
import MusterEvents
import MusterJSON
package import MusterLog
package import MusterRuntime
import NIOFoundationEssentialsCompat

/// The write side of the OPL contract: strike submissions, GPS snapshots and DNS-filter stats.
/// A 2xx is sent only after the log acknowledged the event. With an `Idempotency-Key`, a retry
/// names the same aggregate and appends nothing new.
package enum MobileWriteRoutes {
    /// Submissions are small; anything near this is not a real client.
    static let maxBody = 64 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>,
                           rate: RateLimiter, opl: ProjectionRunner<OPLProjection>, log: EventLog) {
        let mobile = routes.group("/api/mobile", middleware: [RateLimitMiddleware(rate)])
        mobile.post("/submit-strike", access: .key(OPLScopes.app, scope: OPLScopes.submitStrike)) { request, context in
            let client = try context.key()
            let body = try await decode(SubmitStrikeRequest.self, request, context)
            let id = try ids(request, client: client, prefix: "act_")
            let event = try submission(body, actionId: id.value, submittedBy: client.id)
            try await append(event, id: id, log: log, client: client)
            return try JSONResponse.make(.created, SubmittedAnswer(message: "Submitted for moderation", id: id.value))
        }

        mobile.post("/gps-snapshot", access: .key(OPLScopes.app, scope: OPLScopes.gpsSnapshot)) { request, context in
            let client = try context.key()
            let body = try await decode(GPSSnapshotRequest.self, request, context)
            let action = await opl.read { $0.actions[body.actionId] }
            guard let action, action.status != .merged else { throw APIError(.notFound, "no action \(body.actionId.prefix(80))") }
            guard action.status == .approved else {
                throw APIError(.unprocessableContent, "action \(body.actionId) is \(action.status.rawValue), not active")
            }
            let id = try ids(request, client: client, prefix: "snp_")
            let event = SnapshotSubmitted(snapshotId: id.value, actionId: body.actionId, latitude: body.latitude, longitude: body.longitude,
                                          address: body.address.nonEmpty, notes: body.notes.nonEmpty, submittedBy: client.id)
            try await append(event, id: id, log: log, client: client)
            return try JSONResponse.make(.created, SubmittedAnswer(message: "Snapshot submitted for moderation", id: id.value))
        }

        let stats = routes.group("/api/dns-stats", middleware: [RateLimitMiddleware(rate)])
        stats.post("/report", access: .key(OPLScopes.app, scope: OPLScopes.dnsStats)) { request, context in
            let client = try context.key()
            var report = try await decode(DNSStatsReported.self, request, context)
            report.reportedBy = client.id
            // Reports are periodic: each is new, an Idempotency-Key only guards against a resend.
            try await append(report, id: (value: report.aggregateID, key: request.headers[.idempotencyKey]), exclusive: false,
                             log: log, client: client)
            return try JSONResponse.make(.accepted, ["success": true])
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: MusterRequestContext) async throws -> T {
        try await RequestJSON.decode(T.self, from: request, maxBody: maxBody)
    }

    /// The aggregate id: derived from the key and its `Idempotency-Key` when one is sent (so a
    /// retry names the same aggregate), random otherwise.
    static func ids(_ request: Request, client: AuthenticatedClient, prefix: String) throws -> (value: String, key: String?) {
        guard let key = request.headers[.idempotencyKey] else { return (OPLIDs.random(prefix), nil) }
        guard (1...200).contains(key.count) else { throw APIError(.badRequest, "Idempotency-Key must be 1 to 200 characters") }
        return (OPLIDs.derived(prefix, from: client.id, key), key)
    }

    /// Turns the request into the event, accepting both apps' forms.
    static func submission(_ body: SubmitStrikeRequest, actionId: String, submittedBy: String, now: Date = Date()) throws -> ActionSubmitted {
        let a = body.action
        guard let start = OPLDates.parse(a.startDate) else {
            throw APIError(.unprocessableContent, "action.startDate must be an ISO-8601 date-time or YYYY-MM-DD that exists in the calendar")
        }
        guard plausibleStart(now: now).contains(start) else {
            throw APIError(.unprocessableContent, "action.startDate must be within 10 years before and 2 years after today")
        }
        let days = a.durationDays ?? 7
        guard days.isFinite, days == days.rounded(), abs(days) < 1e6 else {
            throw APIError(.unprocessableContent, "action.durationDays must be a whole number of days")
        }
        let website = body.employer.website.nonEmpty
        let details = ActionDetails(
            organization: a.organization, actionType: a.actionType.lowercased(), location: a.location,
            startDate: Timestamp.string(start), durationDays: Int(days), description: a.description,
            demands: a.demands.nonEmpty, contactInfo: a.contactInfo.nonEmpty, learnMoreUrl: a.learnMoreUrl.nonEmpty.map(withScheme),
            coordinates: a.coordinates.map { Coordinates(latitude: $0.latitude, longitude: $0.longitude) })
        return ActionSubmitted(actionId: actionId,
                               employer: EmployerDetails(name: body.employer.name, industry: body.employer.industry.nonEmpty, website: website),
                               action: details, submittedBy: submittedBy)
    }

    /// When a reported action may start: a person reports what is happening, was announced or
    /// happened recently, never year 9999. (The duration is bounded by the event: 1 to 3650 days.)
    static func plausibleStart(now: Date) -> ClosedRange<Date> {
        now.addingTimeInterval(-10 * 366 * 86_400)...now.addingTimeInterval(2 * 366 * 86_400)
    }

    /// `www.acme.com` → `https://www.acme.com`; anything with a scheme stays as it is.
    static func withScheme(_ url: String) -> String {
        url.contains("://") ? url : "https://" + url
    }

    /// Appends; the log's refusals reach the client through their one mapping (`AppendError.apiError`:
    /// 422 naming the field, 413, 503). A retried `Idempotency-Key` after the duplicate window finds its aggregate already
    /// there: that is the same success.
    /// - Parameter exclusive: the event starts its aggregate (a submission), so with a key it
    ///   may only be the aggregate's first event.
    static func append(_ event: some EventPayload, id: (value: String, key: String?), exclusive: Bool = true, log: EventLog,
                       client: AuthenticatedClient) async throws {
        let options = AppendOptions(idempotencyKey: id.key.map { "\(client.id):\($0)" },
                                    expected: id.key != nil && exclusive ? .noEvents : .any, actor: client.id)
        do {
            _ = try await log.append(event, options: options)
        } catch let error as AppendError where error.code == .conflict && id.key != nil && exclusive {
            return // the retry found its aggregate already there: the same success
        }
    }
}

extension Optional where Wrapped == String {
    /// Apps send empty strings for fields the user left blank; they mean absent.
    var nonEmpty: String? {
        guard let value = self?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}
