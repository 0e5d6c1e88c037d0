package import Hummingbird
package import MusterRuntime

/// The dashboards' data as JSON, for a key with `read:analytics` (its own app's data).
package enum AnalyticsRoutes {
    /// Any app's key with `read:analytics`: it reads its own app's data (an operator's, the app it names).
    static let access = AccessRule.key(nil, scope: AnalyticsScopes.read)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, rate: RateLimiter, model: AnalyticsReadModel) {
        let group = routes.group("/api/analytics", middleware: [RateLimitMiddleware(rate)])
        group.get("/funnel", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            let query = try await AnalyticsQueries.funnelQuery(request, model: model, app: app)
            return try AnalyticsQueries.json(await model.funnel(app: app, query: query))
        }
        group.get("/tti", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.tti($0, app: app) })
        }
        group.get("/screens", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.screens($0, app: app) })
        }
        group.get("/errors", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            let endpoint = request.uri.queryParameters["endpoint"].map(String.init)
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.errors($0, app: app, endpoint: endpoint) })
        }
        group.get("/alerts", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.alerts($0, app: app) })
        }
        group.get("/crash-groups", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            return try AnalyticsQueries.json(await model.crashes(app: app))
        }
        group.get("/crash-groups/:fingerprint", access: access) { request, context in
            let app = try AnalyticsQueries.app(request, try context.key())
            let fingerprint = try context.parameters.require("fingerprint")
            guard let detail = try await model.crash(app: app, fingerprint: fingerprint) else {
                throw APIError(.notFound, "no crash group \(fingerprint.prefix(40))")
            }
            return try AnalyticsQueries.json(detail)
        }
    }
}
