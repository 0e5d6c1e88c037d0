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
        public var streams: Bool
        public var projections: [ProjectionStatusReport]
    }

    public static func add(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        let connected = Gauge(label: "muster_nats_connected")
        let reconnects = Gauge(label: "muster_nats_reconnects")

        routes.get("/health") { _, _ in Health(status: "ok") }

        routes.get("/ready") { _, _ -> Response in
            let natsStatus = environment.connection.status
            let streams = natsStatus == .connected ? await environment.log.streamsPresent() : false
            var reports: [ProjectionStatusReport] = []
            for projection in environment.projections { reports.append(await projection.status()) }
            let ready = natsStatus == .connected && streams && reports.allSatisfy(\.caughtUp)
            let body = Readiness(ready: ready, nats: natsStatus.rawValue, streams: streams, projections: reports)
            return try JSONResponse.make(ready ? .ok : .serviceUnavailable, body)
        }

        routes.get("/metrics") { _, _ -> Response in
            connected.record(environment.connection.isConnected ? 1 : 0)
            reconnects.record(Double(environment.connection.reconnectCount))
            let text = environment.metrics.emitToBuffer()
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
