import Foundation
package import Hummingbird
package import MusterLog
import MusterPlatform
package import MusterRuntime

/// The civics-progress reads (scope `read:civics`), served by the query role:
/// `GET /api/pop/civics/orgs` (each organisation and its state), and per deck
/// `…/questions`, `…/hardest`, `…/known` (devices by questions known) and `…/active` (devices
/// that studied each day), each with `?org=` to narrow to one organisation.
package enum CivicsRoutes {
    package static func add(to routes: Routes<Router<MusterRequestContext>>, runner: ProjectionRunner<CivicsProjection>,
                           config: PoPConfig) {
        let reads = routes.group("/api/pop/civics")
        let access = AccessRule.key(PoPRoutes.app, scope: PoPRoutes.readScope)
        @Sendable func report<T: Encodable & Sendable>(_ request: Request, _ body: @escaping @Sendable (CivicsReport, CivicsQuery) -> T) async throws -> Response {
            let query = try CivicsQuery(request, config: config)
            return try JSONResponse.make(.ok, await runner.read { body(CivicsReport(state: $0, config: config), query) })
        }
        reads.get("/orgs", access: access) { _, _ in
            let today = CivicsQuery.today()
            return try JSONResponse.make(.ok, await runner.read { CivicsReport(state: $0, config: config).orgRows(today: today) })
        }
        reads.get("/questions", access: access) { request, _ in try await report(request) { $0.questions(org: $1.org, deck: $1.deck) } }
        reads.get("/hardest", access: access) { request, _ in
            try await report(request) { $0.hardest(org: $1.org, deck: $1.deck, minDevices: $1.minDevices, limit: $1.limit) }
        }
        reads.get("/known", access: access) { request, _ in try await report(request) { $0.known(org: $1.org, deck: $1.deck) } }
        reads.get("/active", access: access) { request, _ in
            let today = CivicsQuery.today()
            return try await report(request) { $0.active(org: $1.org, days: $1.days, today: today) }
        }
    }
}
