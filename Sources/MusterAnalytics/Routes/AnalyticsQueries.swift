import Foundation
import GRDB
import Hummingbird
import MusterEvents
package import MusterLog
import MusterRuntime

/// The analytics folds, as the read routes and pages see them.
package struct AnalyticsReadModel: Sendable {
    package let analytics: ProjectionRunner<AnalyticsProjection>
    package let funnels: ProjectionRunner<FunnelProjection>

    package init(analytics: ProjectionRunner<AnalyticsProjection>, funnels: ProjectionRunner<FunnelProjection>) {
        self.analytics = analytics
        self.funnels = funnels
    }

    /// Before the fold has opened its tables there is nobody to count yet.
    package func funnel(app: String, query: FunnelQuery) async throws -> FunnelReport {
        try await Self.tables { try await funnels.readTables { db in try FunnelTables.report(query, app: app, in: db) } }
            ?? FunnelReport(query: query, people: [])
    }

    package func knownSteps(app: String, funnel: String) async -> [String] {
        await funnels.read { $0.steps[app]?[funnel] ?? [] }
    }

    /// The crash report: session figures from the tables, the rest from the state.
    package func crashes(app: String) async throws -> AnalyticsReports.Crashes {
        let sessions = try await sessionCounts(app: app)
        return await analytics.read { AnalyticsReports.crashes($0, sessions: sessions, app: app) }
    }

    package func crash(app: String, fingerprint: String) async throws -> AnalyticsReports.CrashDetail? {
        let sessions = try await sessionCounts(app: app)
        return await analytics.read { AnalyticsReports.crash($0, sessions: sessions, app: app, fingerprint: fingerprint) }
    }

    func sessionCounts(app: String) async throws -> SessionCounts {
        try await Self.tables { try await analytics.readTables { db in try AnalyticsTables.sessions(app: app, in: db) } } ?? .none
    }

    /// A read of a fold's tables; the database failing it (closed while the fold reloads a rebuilt
    /// generation, say) is a 503 to try again, not a 500.
    static func tables<T>(_ read: () async throws -> T) async throws -> T {
        do {
            return try await read()
        } catch is DatabaseError {
            throw APIError(.serviceUnavailable, "the report's tables are being reopened; try again")
        }
    }

    package func read<T: Sendable>(_ body: @Sendable (AnalyticsProjection.State) -> T) async -> T {
        await analytics.read(body)
    }
}

/// Parsing the read routes' parameters, with 400s that say what is wrong.
enum AnalyticsQueries {
    /// The app whose data a key sees: its own; a `platform` key chooses with `?app=`.
    static func app(_ request: Request, _ client: AuthenticatedClient) throws -> String {
        guard client.isOperator else { return client.app }
        let app = request.uri.queryParameters["app"].map(String.init) ?? "offleash"
        guard Subject.isToken(app) else { throw APIError(.badRequest, "app must be an app name") }
        return app
    }

    static func funnelQuery(_ request: Request, model: AnalyticsReadModel, app: String) async throws -> FunnelQuery {
        let params = request.uri.queryParameters
        let funnel = params["funnel"].map(String.init) ?? "booking"
        guard Subject.isToken(funnel) else { throw APIError(.badRequest, "funnel must be letters, digits, - or _") }
        var steps: [[String]]
        if let text = params["steps"] {
            steps = text.split(separator: ",").map { $0.split(separator: "|").map(String.init) }
            guard (2...20).contains(steps.count), steps.allSatisfy({ !$0.isEmpty && $0.allSatisfy(Subject.isToken) }) else {
                throw APIError(.badRequest, "steps must be 2 to 20 comma-separated steps, alternatives joined by |")
            }
        } else if funnel == "booking" {
            steps = FunnelQuery.bookingSteps
        } else {
            steps = await model.knownSteps(app: app, funnel: funnel).map { [$0] }
            guard steps.count >= 2 else {
                throw APIError(.badRequest, "funnel \(funnel) needs steps (steps=first,second,…): fewer than two are known")
            }
        }
        var query = FunnelQuery(funnel: funnel, steps: steps)
        if let hours = params["window_hours"] {
            guard let h = Double(hours), h.isFinite, h > 0, h <= 24 * 90 else {
                throw APIError(.badRequest, "window_hours must be a number of hours, more than 0 and at most 2160")
            }
            query.windowMillis = Int64(h * 3_600_000)
        }
        query.since = try time(params["since"], "since")
        query.until = try time(params["until"], "until")
        return query
    }

    static func time(_ text: Substring?, _ name: String) throws -> Int64? {
        guard let text else { return nil }
        if let ms = Timestamp.millis(String(text)) { return ms }
        if text.count == 10, let ms = Timestamp.millis(text + "T00:00:00Z") { return ms }
        throw APIError(.badRequest, "\(name) must be a date (2026-11-21) or an RFC 3339 date-time")
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: some Encodable) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
