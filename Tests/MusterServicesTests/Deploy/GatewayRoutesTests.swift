import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MusterStandIns
import MusterAppTesting
import MusterRuntime
import MusterTesting
import NIOHTTP1
import ServiceLifecycle
import Testing

/// Every operation of `schemas/openapi.yaml`, sent through the shipped `deploy/gateway/nginx.conf`,
/// reaches a service whose apps serve it. Each upstream is a stand-in that answers any request
/// with its own name; which roles serve a route comes from composing each role alone from the
/// apps, so a route an app adds to a role is checked against the gateway the moment it exists.
@Suite("The gateway routes every documented operation to its service", .serialized)
struct GatewayRoutesTests {
    /// Answers everything with `X-Stand-In: <name>`.
    struct StandIn: RouterMiddleware {
        typealias Context = BasicRequestContext
        let name: String
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            Response(status: .ok, headers: [HTTPField.Name("X-Stand-In")!: name])
        }
    }

    /// Upstreams in the gateway (the notifier serves no public route).
    static let upstreams = ["ingest", "geocode", "moderation", "collector", "query"]

    /// `"GET /api/mobile/data"` → the roles that serve it, each role composed alone.
    static func servingRoles(_ env: TestLog) throws -> [String: Set<String>] {
        var serving: [String: Set<String>] = [:]
        for role in ServiceRole.allCases {
            let environment = MusterEnvironment(configuration: env.environment.configuration, logger: env.environment.logger,
                                                connection: env.connection, catalog: apps.catalog,
                                                metrics: env.environment.metrics, source: "test", apps: apps.directory)
            _ = try MusterHTTP.makeRouter(environment: environment, modules: apps.modules([role.name], environment: environment))
            for route in environment.routes.routes { serving["\(route.method.uppercased()) \(route.path)", default: []].insert(role.name) }
        }
        return serving
    }

    @Test func everyDocumentedOperationReachesAServiceThatServesIt() async throws {
        let result = try await Repository.run(["python3", "scripts/openapi_routes.py", "schemas/openapi.yaml"], environment: Repository.pythonEnvironment)
        try #require(result.status == 0, "openapi check failed: \(result.error)")
        let operations = try JSONDecoder().decode([OpenAPITests.Operation].self, from: Data(result.output.utf8))
        try #require(operations.count > 20)
        let serving = try await apps.withTestLog { try Self.servingRoles($0) }

        let (ports, portsContinuation) = AsyncStream.makeStream(of: (String, Int).self)
        let standIns = Self.upstreams.map { name in
            let router = Router()
            router.add(middleware: StandIn(name: name))
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: name),
                               onServerRunning: { channel in portsContinuation.yield((name, channel.localAddress?.port ?? 0)) })
        }
        let group = ServiceGroup(services: standIns, logger: .init(label: "stand-ins"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var portOf: [String: Int] = [:]
            for await (name, port) in ports {
                portOf[name] = port
                if portOf.count == Self.upstreams.count { break }
            }
            let known = portOf
            try await NginxGateway.withGateway(upstreams: { known[$0] ?? 1 }) { gateway in
                try await NginxGateway.withClient(trusting: gateway.certificate) { https in
                    var wrong: [String] = []
                    for operation in operations {
                        let key = "\(operation.method.uppercased()) \(operation.path)"
                        // `{id}` → a plausible segment; the stand-in answers whatever it gets.
                        let path = operation.path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "x1", options: .regularExpression)
                        let answer = try await NginxGateway.status(https, "https://localhost:\(gateway.https)\(path)",
                                                                   method: HTTPMethod(rawValue: operation.method.uppercased()),
                                                                   body: operation.method == "get" ? nil : "{}")
                        let servedBy = answer.standIn ?? "nginx itself (\(answer.status))"
                        let expected = serving[key] ?? []
                        // /health and /ready exist in every role; the gateway asks query.
                        if !expected.contains(servedBy) { wrong.append("\(key) → \(servedBy), served by \(expected.sorted())") }
                    }
                    print("gateway: \(operations.count) documented operations sent through nginx.conf, \(wrong.count) misrouted")
                    #expect(wrong.isEmpty, "the gateway sends these elsewhere:\n\(wrong.joined(separator: "\n"))")
                }
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
