import Foundation
package import Hummingbird
package import MusterPlatform
package import MusterRuntime

/// The HTML dashboards under `/dashboards`. A person signs in with a `read:analytics` key, kept in
/// the page session scoped to `/dashboards` (`PageSession`); a script may send `X-API-Key`
/// instead. Pages hold no scripts and load nothing from elsewhere.
package enum DashboardRoutes {
    static let session = PageSession(path: "/dashboards")
    static let access = AccessRule.page(nil, scope: AnalyticsScopes.read, keyHeader: true)

    struct Form: Decodable { var key: String? }

    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response { HTMLResponse.page(body, status: status) }

    package static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, model: AnalyticsReadModel) {
        /// The key the page's rule admitted (from the page session or `X-API-Key`), or nil: sign in.
        @Sendable func viewer(_ context: MusterRequestContext) -> AuthenticatedClient? {
            guard case .key = context.principal else { return nil }
            return context.caller.page.value.flatMap { if case .key(let client) = $0 { client } else { nil } } ?? context.caller.key.value
        }
        let signIn = html(DashboardPages.login(message: nil), status: .unauthorized)

        routes.post("/dashboards/login", access: .anyone) { request, _ in
            let body = try await request.body.collect(upTo: 16 * 1024)
            let key = (try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body)))?.key?.trimmingCharacters(in: .whitespaces) ?? ""
            guard (try? await keys.authenticate(key, app: nil, scope: AnalyticsScopes.read)) != nil else {
                return html(DashboardPages.login(message: "That key is unknown, revoked, or lacks read:analytics."), status: .unauthorized)
            }
            return HTMLResponse.redirect("/dashboards", headers: session.signIn(key))
        }
        routes.post("/dashboards/logout", access: .anyone) { _, _ in
            HTMLResponse.redirect("/dashboards", headers: session.signOut)
        }
        routes.get("/dashboards", access: access) { request, context in
            guard let client = viewer(context) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let funnel = try await model.funnel(app: app, query: FunnelQuery(funnel: "booking", steps: FunnelQuery.bookingSteps))
            let (tti, errors) = await model.read { (AnalyticsReports.tti($0, app: app), AnalyticsReports.errors($0, app: app)) }
            let crashes = try await model.crashes(app: app)
            return html(DashboardPages.overview(app: app, funnel: funnel, tti: tti, errors: errors, crashes: crashes))
        }
        routes.get("/dashboards/funnel", access: access) { request, context in
            guard let client = viewer(context) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let query = try await AnalyticsQueries.funnelQuery(request, model: model, app: app)
            let report = try await model.funnel(app: app, query: query)
            return html(DashboardPages.funnel(app: app, report: report, steps: query.steps.map { $0.joined(separator: "|") }.joined(separator: ","),
                                              window: String(format: "%g", report.windowHours)))
        }
        routes.get("/dashboards/tti", access: access) { request, context in
            guard let client = viewer(context) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let (rows, screens) = await model.read { (AnalyticsReports.tti($0, app: app), AnalyticsReports.screens($0, app: app)) }
            return html(DashboardPages.tti(app: app, rows: rows, screens: screens))
        }
        routes.get("/dashboards/errors", access: access) { request, context in
            guard let client = viewer(context) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            return html(DashboardPages.errors(app: app, report: await model.read { AnalyticsReports.errors($0, app: app) }))
        }
        routes.get("/dashboards/crashes", access: access) { request, context in
            guard let client = viewer(context) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            return html(DashboardPages.crashes(app: app, report: try await model.crashes(app: app)))
        }
        routes.get("/dashboards/crashes/:fingerprint", access: access) { request, context in
            guard let client = viewer(context) else { return signIn }
            let app = try AnalyticsQueries.app(request, client)
            let fingerprint = try context.parameters.require("fingerprint")
            guard let detail = try await model.crash(app: app, fingerprint: fingerprint) else {
                throw APIError(.notFound, "no crash group \(fingerprint.prefix(40))")
            }
            return html(DashboardPages.crash(app: app, detail: detail))
        }
    }
}
