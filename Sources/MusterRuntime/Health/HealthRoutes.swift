import Foundation
public import Hummingbird
public import MusterLog
import MusterNATS

/// `/health` (the process answers) and `/ready` (NATS connected, streams present, projections
/// caught up or at most `tolerableLag` events behind). `/metrics` has its own port (`MetricsRoutes`).
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

    /// A projection at most this many events behind still counts for readiness: under steady
    /// writes a fold is always an event or two behind, and `/ready` must not flap with it.
    public static let tolerableLag: UInt64 = 100

    public static func add(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        routes.get("/health") { _, _ in Health(status: "ok") }

        routes.get("/ready") { _, _ -> Response in
            let natsStatus = environment.connection.status
            let streams = natsStatus == .connected ? await environment.log.streamsPresent() : false
            let reports = await environment.projectionReports()
            let ready = natsStatus == .connected && streams && reports.allSatisfy { $0.caughtUp || $0.lag <= tolerableLag }
            let body = Readiness(ready: ready, nats: natsStatus.rawValue, natsError: environment.connection.lastAsyncError,
                                 streams: streams, projections: reports)
            return try JSONResponse.make(ready ? .ok : .serviceUnavailable, body)
        }
    }
}
