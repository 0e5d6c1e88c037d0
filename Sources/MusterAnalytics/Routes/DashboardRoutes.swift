import Foundation
public import Hummingbird
public import MusterPlatform
public import MusterRuntime

/// The HTML dashboards under `/dashboards`. A person signs in with a `read:analytics` key, kept in
/// an HttpOnly, SameSite=Strict cookie scoped to `/dashboards`; a script may send `X-API-Key`
/// instead. Pages hold no scripts and load nothing from elsewhere.
public enum DashboardRoutes {
    static let cookie = KeyCookie(name: "muster_dashboards", path: "/dashboards")

    struct Form: Decodable { var key: String? }

    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response { HTMLResponse.page(body, status: status) }

    public static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, model: AnalyticsReadModel) {
        @Sendable func viewer(_ request: Request) async -> AuthenticatedClient? {
            guard let key = request.headers[.apiKey] ?? cookie.key(in: request),
                  let client = try? await keys.authenticate(key, app: nil, scope: AnalyticsScopes.read) else { return nil }
            return client
        }
        let signIn = html(DashboardPages.login(message: nil), status: .unauthorized)

        routes.post("/dashboards/login") { request, _ in
            let body = try await request.body.collect(upTo: 16 * 1024)
            let key = (try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body)))?.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard (try? await keys.authenticate(key, app: nil, scope: AnalyticsScopes.read)) != nil else {
                return html(DashboardPages.login(message: "That key is unknown, revoked, or lacks read:analytics."), status: .unauthorized)
            }
            return HTMLResponse.redirect("/dashboards", headers: cookie.signIn(key))
        }
        routes.post("/dashboards/logout") { _, _ in
            HTMLResponse.redirect("/dashboards", headers: cookie.signOut)
        }
        routes.get("/dashboards") { request, _ in
            guard let client = await viewer(request) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let funnel = try await model.funnel(app: app, query: FunnelQuery(funnel: "booking", steps: FunnelQuery.bookingSteps))
            let (tti, errors) = await model.read { (AnalyticsReports.tti($0, app: app), AnalyticsReports.errors($0, app: app)) }
            let crashes = try await model.crashes(app: app)
            return html(DashboardPages.overview(app: app, funnel: funnel, tti: tti, errors: errors, crashes: crashes))
        }
        routes.get("/dashboards/funnel") { request, _ in
            guard let client = await viewer(request) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let query = try await AnalyticsQueries.funnelQuery(request, model: model, app: app)
            let report = try await model.funnel(app: app, query: query)
            return html(DashboardPages.funnel(app: app, report: report, steps: query.steps.map { $0.joined(separator: "|") }.joined(separator: ","),
                                              window: String(format: "%g", report.windowHours)))
        }
        routes.get("/dashboards/tti") { request, _ in
            guard let client = await viewer(request) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let (rows, screens) = await model.read { (AnalyticsReports.tti($0, app: app), AnalyticsReports.screens($0, app: app)) }
            return html(DashboardPages.tti(app: app, rows: rows, screens: screens))
        }
        routes.get("/dashboards/errors") { request, _ in
            guard let client = await viewer(request) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            return html(DashboardPages.errors(app: app, report: await model.read { AnalyticsReports.errors($0, app: app) }))
        }
        routes.get("/dashboards/crashes") { request, _ in
            guard let client = await viewer(request) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            return html(DashboardPages.crashes(app: app, report: try await model.crashes(app: app)))
        }
        routes.get("/dashboards/crashes/:fingerprint") { request, context in
            guard let client = await viewer(request) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let fingerprint = try context.parameters.require("fingerprint")
            guard let detail = try await model.crash(app: app, fingerprint: fingerprint) else {
                throw APIError(.notFound, "no crash group \(fingerprint.prefix(40))")
            }
            return html(DashboardPages.crash(app: app, detail: detail))
        }
    }
}
