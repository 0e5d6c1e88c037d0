import Foundation
import Hummingbird
import HummingbirdTesting
import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import NIOFoundationEssentialsCompat
import ServiceLifecycle
import Testing

/// The whole `muster serve …` composition on a fresh log: every chosen service's routes on one
/// router and its long-running parts (projections, processors) running.
struct TestApp {
    let env: TestLog
    let client: any TestClientProtocol

    var log: EventLog { env.log }

    func settled(_ name: String, at sequence: UInt64) async throws {
        try await env.settled(name, at: sequence)
    }

    func key(app: String = "opl", _ scopes: [String]) async throws -> String {
        try await env.key(app: app, scopes)
    }

    @discardableResult
    func request(_ uri: String, method: HTTPRequest.Method = .get, key: String? = nil, headers: HTTPFields = [:], json: String? = nil) async throws -> TestResponse {
        var headers = headers
        if let key { headers[.apiKey] = key }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:] }
    var errorMessage: String { json["error"] as? String ?? "<no {error} body: \(text.prefix(200))>" }
}

/// - Parameter live: serve on a real socket with the process's own application (fast paths in
///   the channel pipeline included) instead of calling the router directly.
func withTestApp(_ names: [String] = ["all"], live: Bool = false, configure: (inout MusterConfiguration) -> Void = { _ in },
                 _ body: @escaping @Sendable (TestApp) async throws -> Void) async throws {
    try await withTestLog({ configuration in
        configure(&configuration)
        if live { configuration.httpPort = 0 } // any free port
    }) { env in
        let modules = MusterProcess.modules(try MusterProcess.resolve(names), environment: env.environment)
        let services = MusterProcess.services(of: modules, environment: env.environment)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services { group.addTask { try await service.run() } }
            if live {
                // The process's own application: real sockets and the fast paths in the pipeline.
                let app = MusterHTTP.makeApplication(environment: env.environment, modules: modules)
                try await app.test(.live) { client in try await body(TestApp(env: env, client: client)) }
            } else {
                let app = Application(router: MusterHTTP.makeRouter(environment: env.environment, modules: modules))
                try await app.test(.router) { client in try await body(TestApp(env: env, client: client)) }
            }
            group.cancelAll()
        }
    }
}

/// The process's own HTTP application on a real socket, without a test client of its own (whose
/// keep-alive connection would meet the server's idle limit): `body` gets the port.
func withLiveServer(_ names: [String] = ["all"], on cluster: NATSTestCluster? = nil,
                    configure: (inout MusterConfiguration) -> Void = { _ in },
                    _ body: @escaping @Sendable (TestLog, Int) async throws -> Void) async throws {
    try await withTestLog(on: cluster, { configuration in
        configure(&configuration)
        configuration.httpPort = 0
    }) { env in
        let modules = MusterProcess.modules(try MusterProcess.resolve(names), environment: env.environment)
        let services = MusterProcess.services(of: modules, environment: env.environment)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = MusterHTTP.makeApplication(environment: env.environment, modules: modules) { port in portContinuation.yield(port) }
        let group = ServiceGroup(services: services + [app], logger: env.environment.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestServerError("the server did not start") }
            do {
                try await body(env, port)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
