public import Hummingbird
public import MusterPlatform
public import MusterRuntime

/// The dashboards' data as JSON, for a key with `read:analytics` (its own app's data).
public enum AnalyticsRoutes {
    public static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, rate: RateLimiter,
                           model: AnalyticsReadModel) {
        let group = routes.group("/api/analytics", middleware: [APIKeyMiddleware(keys: keys, app: nil, scope: AnalyticsScopes.read), RateLimitMiddleware(rate)])
        group.get("/funnel") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            let query = try await AnalyticsQueries.funnelQuery(request, model: model, app: app)
            return try AnalyticsQueries.json(await model.funnel(app: app, query: query))
        }
        group.get("/tti") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.tti($0, app: app) })
        }
        group.get("/screens") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.screens($0, app: app) })
        }
        group.get("/errors") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            let endpoint = request.uri.queryParameters["endpoint"].map(String.init)
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.errors($0, app: app, endpoint: endpoint) })
        }
        group.get("/alerts") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            return try AnalyticsQueries.json(await model.read { AnalyticsReports.alerts($0, app: app) })
        }
        group.get("/crash-groups") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            return try AnalyticsQueries.json(await model.crashes(app: app))
        }
        group.get("/crash-groups/:fingerprint") { request, context in
            let app = try AnalyticsQueries.app(request, try context.requireClient())
            let fingerprint = try context.parameters.require("fingerprint")
            guard let detail = try await model.crash(app: app, fingerprint: fingerprint) else {
                throw APIError(.notFound, "no crash group \(fingerprint.prefix(40))")
            }
            return try AnalyticsQueries.json(detail)
        }
    }
}
