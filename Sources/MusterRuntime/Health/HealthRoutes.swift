import Foundation
import Hummingbird
import MusterLog

/// `/health` (the process answers) and `/ready` (NATS connected, streams present, projections
/// caught up). `/metrics` has its own port (`MetricsRoutes`).
public enum HealthRoutes {
    public struct Health: ResponseEncodable, Sendable { public var status: String }

    public struct Readiness: Encodable, Sendable {
        public var ready: Bool
        public var nats: String
        /// The last asynchronous error libnats reported (slow consumer, permissions), if any.
        public var natsError: String?
        public var streams: Bool
        public var projections: [ProjectionStatusReport]
    }

    public static func add(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        routes.get("/health") { _, _ in Health(status: "ok") }

        routes.get("/ready") { _, _ -> Response in
            let natsStatus = environment.connection.status
            let streams = natsStatus == .connected ? await environment.log.streamsPresent() : false
            let reports = await environment.projectionReports()
            let ready = natsStatus == .connected && streams && reports.allSatisfy(\.caughtUp)
            let body = Readiness(ready: ready, nats: natsStatus.rawValue, natsError: environment.connection.lastAsyncError,
                                 streams: streams, projections: reports)
            return try JSONResponse.make(ready ? .ok : .serviceUnavailable, body)
        }
    }
}
