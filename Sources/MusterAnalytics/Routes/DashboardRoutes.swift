import Foundation
package import Hummingbird
package import MusterPlatform
package import MusterRuntime

/// The HTML dashboards under `/dashboards`. A person signs in with a `read:analytics` key, kept in
/// the page session scoped to `/dashboards` (`PageSession`); a script may send `X-API-Key`
/// instead. Pages hold no scripts and load nothing from elsewhere.
package enum DashboardRoutes {
    static let group = PageGroup(name: "Dashboards", path: "/dashboards", nav: [
        .init("Overview", "/dashboards"), .init("Funnel", "/dashboards/funnel"), .init("Time to interactive", "/dashboards/tti"),
        .init("Errors", "/dashboards/errors"), .init("Crashes", "/dashboards/crashes"),
    ])
    static let access = AccessRule.page(nil, scope: AnalyticsScopes.read, keyHeader: true)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, model: AnalyticsReadModel, templates: PageTemplates) {
        /// The key the page's rule admitted (from the page session or `X-API-Key`), or nil: sign in.
        @Sendable func viewer(_ context: MusterRequestContext) -> AuthenticatedClient? {
            guard case .key = context.principal else { return nil }
            return context.caller.page.value.flatMap { if case .key(let client) = $0 { client } else { nil } } ?? context.caller.key.value
        }
        let signIn = PageSignIn.keys(group, app: nil, scope: AnalyticsScopes.read, keys: keys, templates: templates)
        signIn.add(to: routes)
        @Sendable func html(_ report: ReportView, _ request: Request, _ context: MusterRequestContext) async throws -> Response {
            try await templates.report(report, group: group, request: request, context: context)
        }

        routes.get("/dashboards", access: access) { request, context in
            guard let client = viewer(context) else { return try await signIn.form(request, context) }
            let app = try AnalyticsQueries.app(request, client)
            let funnel = try await model.funnel(app: app, query: FunnelQuery(funnel: "booking", steps: FunnelQuery.bookingSteps))
            let (tti, errors) = await model.read { (AnalyticsReports.tti($0, app: app), AnalyticsReports.errors($0, app: app)) }
            let crashes = try await model.crashes(app: app)
            return try await html(DashboardPages.overview(app: app, funnel: funnel, tti: tti, errors: errors, crashes: crashes), request, context)
        }
        routes.get("/dashboards/funnel", access: access) { request, context in
            guard let client = viewer(context) else { return try await signIn.form(request, context) }
            let app = try AnalyticsQueries.app(request, client)
            let query = try await AnalyticsQueries.funnelQuery(request, model: model, app: app)
            let report = try await model.funnel(app: app, query: query)
            return try await html(DashboardPages.funnel(app: app, report: report, steps: query.steps.map { $0.joined(separator: "|") }.joined(separator: ","),
                                              window: String(format: "%g", report.windowHours)), request, context)
        }
        routes.get("/dashboards/tti", access: access) { request, context in
            guard let client = viewer(context) else { return try await signIn.form(request, context) }
            let app = try AnalyticsQueries.app(request, client)
            let (rows, screens) = await model.read { (AnalyticsReports.tti($0, app: app), AnalyticsReports.screens($0, app: app)) }
            return try await html(DashboardPages.tti(app: app, rows: rows, screens: screens), request, context)
        }
        routes.get("/dashboards/errors", access: access) { request, context in
            guard let client = viewer(context) else { return try await signIn.form(request, context) }
            let app = try AnalyticsQueries.app(request, client)
            return try await html(DashboardPages.errors(app: app, report: await model.read { AnalyticsReports.errors($0, app: app) }), request, context)
        }
        routes.get("/dashboards/crashes", access: access) { request, context in
            guard let client = viewer(context) else { return try await signIn.form(request, context) }
            let app = try AnalyticsQueries.app(request, client)
            return try await html(DashboardPages.crashes(app: app, report: try await model.crashes(app: app)), request, context)
        }
        routes.get("/dashboards/crashes/:fingerprint", access: access) { request, context in
            guard let client = viewer(context) else { return try await signIn.form(request, context) }
            let app = try AnalyticsQueries.app(request, client)
            let fingerprint = try context.parameters.require("fingerprint")
            guard let detail = try await model.crash(app: app, fingerprint: fingerprint) else {
                throw APIError(.notFound, "no crash group \(fingerprint.prefix(40))")
            }
            return try await html(DashboardPages.crash(app: app, detail: detail), request, context)
        }
    }
}
