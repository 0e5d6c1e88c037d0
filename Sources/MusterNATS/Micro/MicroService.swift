package import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// One request endpoint of a NATS micro service.
package struct MicroEndpoint: Sendable {
    package typealias Handler = @Sendable (NATSMessage) async throws -> Data
    package var name: String
    package var subject: String
    package var queueGroup: String
    package var handler: Handler

    package init(name: String, subject: String, queueGroup: String = "q", handler: @escaping Handler) {
        self.name = name
        self.subject = subject
        self.queueGroup = queueGroup
        self.handler = handler
    }
}

/// An endpoint handler's refusal: sent back as `Nats-Service-Error` / `-Code` headers.
package struct MicroServiceError: Error, Sendable {
    package var code: Int
    package var description: String
    package init(code: Int, _ description: String) { self.code = code; self.description = description }
}

/// A NATS micro service (the `$SRV.PING` / `INFO` / `STATS` discovery protocol) with its endpoints.
/// Run it as a `Service`; it stops taking requests on graceful shutdown.
package final class MicroService: Service, Sendable {
    struct EndpointStats: Sendable {
        var requests = 0
        var errors = 0
        var processingNanos: Int64 = 0
        var lastError = ""
    }

    package let connection: NATSConnection
    package let name: String
    package let id: String
    package let version: String
    package let serviceDescription: String
    package let metadata: [String: String]
    package let endpoints: [MicroEndpoint]
    let started = Date()
    let stats: Mutex<[String: EndpointStats]>

    package init(connection: NATSConnection, name: String, version: String, description: String,
                metadata: [String: String] = [:], endpoints: [MicroEndpoint] = []) {
        self.connection = connection
        self.name = name
        self.id = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(22).uppercased()
        self.version = version
        self.serviceDescription = description
        self.metadata = metadata
        self.endpoints = endpoints
        self.stats = Mutex(Dictionary(uniqueKeysWithValues: endpoints.map { ($0.name, EndpointStats()) }))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    struct Ping: Encodable { var type = "io.nats.micro.v1.ping_response"; var name, id, version: String; var metadata: [String: String] }
    struct Info: Encodable {
        struct Endpoint: Encodable { var name, subject: String; var queue_group: String; var metadata: [String: String]? }
        var type = "io.nats.micro.v1.info_response"
        var name, id, version, description: String
        var metadata: [String: String]
        var endpoints: [Endpoint]
    }
    struct Stats: Encodable {
        struct Endpoint: Encodable {
            var name, subject, queue_group: String
            var num_requests, num_errors: Int
            var last_error: String
            var processing_time, average_processing_time: Int64
        }
        var type = "io.nats.micro.v1.stats_response"
        var name, id, version: String
        var metadata: [String: String]
        var started: String
        var endpoints: [Endpoint]
    }

    func pingResponse() throws -> Data {
        try Self.encoder.encode(Ping(name: name, id: id, version: version, metadata: metadata))
    }

    func infoResponse() throws -> Data {
        try Self.encoder.encode(Info(name: name, id: id, version: version, description: serviceDescription, metadata: metadata,
                                     endpoints: endpoints.map { .init(name: $0.name, subject: $0.subject, queue_group: $0.queueGroup, metadata: nil) }))
    }

    func statsResponse() throws -> Data {
        let snapshot = stats.withLock { $0 }
        let formatter = ISO8601DateFormatter()
        return try Self.encoder.encode(Stats(
            name: name, id: id, version: version, metadata: metadata, started: formatter.string(from: started),
            endpoints: endpoints.map { endpoint in
                let s = snapshot[endpoint.name] ?? EndpointStats()
                return .init(name: endpoint.name, subject: endpoint.subject, queue_group: endpoint.queueGroup,
                             num_requests: s.requests, num_errors: s.errors, last_error: s.lastError,
                             processing_time: s.processingNanos,
                             average_processing_time: s.requests == 0 ? 0 : s.processingNanos / Int64(s.requests))
            }))
    }

    /// The discovery subjects this service answers: all, by name, by name and id.
    var discoverySubjects: [(String, @Sendable () throws -> Data)] {
        var subjects: [(String, @Sendable () throws -> Data)] = []
        for (verb, answer) in [("PING", pingResponse), ("INFO", infoResponse), ("STATS", statsResponse)] as [(String, @Sendable () throws -> Data)] {
            subjects.append(("$SRV.\(verb)", answer))
            subjects.append(("$SRV.\(verb).\(name)", answer))
            subjects.append(("$SRV.\(verb).\(name).\(id)", answer))
        }
        return subjects
    }

    private func serve(_ endpoint: MicroEndpoint, _ request: NATSMessage) async {
        guard let replyTo = request.replyTo else { return }
        let start = ContinuousClock.now
        var headers = NATSHeaders()
        var body = Data()
        var failure: String?
        do {
            body = try await endpoint.handler(request)
        } catch let error as MicroServiceError {
            headers["Nats-Service-Error"] = error.description
            headers["Nats-Service-Error-Code"] = String(error.code)
            failure = error.description
        } catch {
            headers["Nats-Service-Error"] = "\(error)"
            headers["Nats-Service-Error-Code"] = "500"
            failure = "\(error)"
        }
        let elapsed = (ContinuousClock.now - start).nanoseconds
        stats.withLock { all in
            all[endpoint.name, default: EndpointStats()].requests += 1
            all[endpoint.name, default: EndpointStats()].processingNanos += elapsed
            if let failure {
                all[endpoint.name, default: EndpointStats()].errors += 1
                all[endpoint.name, default: EndpointStats()].lastError = failure
            }
        }
        try? connection.publish(replyTo, headers: headers, payload: body)
    }

    package func run() async throws {
        var discovery: [(NATSSubscription, @Sendable () throws -> Data)] = []
        for (subject, answer) in discoverySubjects { discovery.append((try await connection.subscribe(subject, capacity: 64), answer)) }
        var served: [(NATSSubscription, MicroEndpoint)] = []
        for endpoint in endpoints {
            served.append((try await connection.subscribe(endpoint.subject, queue: endpoint.queueGroup, capacity: 256), endpoint))
        }
        connection.logger.info("micro service up", metadata: ["service": "\(name)", "id": "\(id)"])
        await withDiscardingTaskGroup { group in
            for (subscription, answer) in discovery {
                group.addTask {
                    for await request in subscription.cancelOnGracefulShutdown() {
                        guard let replyTo = request.replyTo, let body = try? answer() else { continue }
                        try? self.connection.publish(replyTo, payload: body)
                    }
                }
            }
            for (subscription, endpoint) in served {
                group.addTask {
                    for await request in subscription.cancelOnGracefulShutdown() {
                        await self.serve(endpoint, request)
                    }
                }
            }
        }
        for (subscription, _) in discovery { subscription.unsubscribe() }
        for (subscription, _) in served { subscription.unsubscribe() }
    }
}
