import Foundation
import Hummingbird
import Metrics
import MusterLog

/// `/health` (the process answers), `/ready` (NATS connected, streams present, projections caught
/// up) and `/metrics` (Prometheus text).
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
        // Made on the environment's registry, so they exist whether or not the process-wide
        // metrics system was bootstrapped (tests run many environments in one process).
        let connected = environment.metrics.makeGauge(descriptor: .init(
            namespace: "muster", subsystem: "nats", metricName: "connected", unitName: "", helpText: "1 while connected to NATS"))
        let reconnects = environment.metrics.makeGauge(descriptor: .init(
            namespace: "muster", subsystem: "nats", metricName: "reconnects", unitName: "", helpText: "reconnects since start"))

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

        routes.get("/metrics") { _, _ -> Response in
            connected.set(Double(environment.connection.isConnected ? 1 : 0))
            reconnects.set(Double(environment.connection.reconnectCount))
            let text = environment.metrics.emitToBuffer()
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
