package import Foundation
package import Hummingbird
package import MusterLog
import MusterNATS

/// `/health` is liveness: the process serves HTTP. `/ready` says whether to send it traffic: the
/// NATS connection is up, the log takes writes (as the last writes and the log watch found it),
/// every projection has opened and is caught up or at most `tolerableLag` events behind, and each
/// service's own data is in place. Neither waits on NATS or on a fold: both read state kept as it
/// changes, so they answer at once however the cluster is doing. `/metrics` has its own port
/// (`MetricsRoutes`).
package enum HealthRoutes {
    package struct Health: ResponseEncodable, Sendable { package var status: String }

    package struct Readiness: Encodable, Sendable {
        package var ready: Bool
        /// Why not, one line per reason; absent when ready.
        package var reasons: [String]?
        package var nats: String
        /// The last asynchronous error libnats reported (slow consumer, permissions), if any.
        package var natsError: String?
        /// Whether the log takes writes; while not, since when and why.
        package var log: LogState
        package var projections: [ProjectionStatusReport]
    }

    package struct LogState: Encodable, Sendable {
        package var reachable: Bool
        /// The log answers but its store is full (present only then).
        package var full: Bool?
        package var unreachableSince: Date?
        package var reason: String?
        package var writesRefused: Int?
    }

    /// A projection at most this many events behind still counts for readiness: under steady
    /// writes a fold is always an event or two behind, and `/ready` must not flap with it.
    package static let tolerableLag: UInt64 = 100

    package static func add(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment,
                           checks: [ReadinessCheck] = []) {
        routes.get("/health", access: .anyone) { _, _ in Health(status: "ok") }

        routes.get("/ready", access: .anyone) { _, _ -> Response in
            let body = await readiness(environment: environment, checks: checks)
            return try JSONResponse.make(body.ready ? .ok : .serviceUnavailable, body)
        }
    }

    static func readiness(environment: MusterEnvironment, checks: [ReadinessCheck]) async -> Readiness {
        let natsStatus = environment.connection.status
        let log = environment.log.availability.snapshot
        let reports = await environment.projectionReports()
        var reasons: [String] = []
        if natsStatus != .connected { reasons.append("NATS is \(natsStatus)") }
        if log.full {
            reasons.append("the log is full, writes are refused until space is freed: \(log.reason ?? "store limit reached")")
        } else if !log.reachable {
            reasons.append("the log is unreachable: \(log.reason ?? "no answer")")
        }
        for report in reports {
            if !report.opened {
                reasons.append("projection \(report.name) is still opening")
            } else if !report.caughtUp && report.lag > tolerableLag {
                reasons.append("projection \(report.name) is \(report.lag) events behind")
            }
        }
        reasons += checks.compactMap { check in check.notReady().map { "\(check.name): \($0)" } }
        return Readiness(ready: reasons.isEmpty, reasons: reasons.isEmpty ? nil : reasons, nats: natsStatus.rawValue,
                         natsError: environment.connection.lastAsyncError,
                         log: LogState(reachable: log.reachable, full: log.full ? true : nil, unreachableSince: log.unreachableSince, reason: log.reason,
                                       writesRefused: log.reachable ? nil : log.refused),
                         projections: reports)
    }
}
