import Hummingbird
import HummingbirdTesting
import MusterNATS
package import MusterRuntime
package import MusterTesting
import ServiceLifecycle

/// How a test target runs the apps it tests: `let apps = MusterApps([PlatformApp(), OPLApp()])`,
/// then `apps.withTestApp(["ingest"]) { app in … }`.
extension MusterApps {
    /// Runs `body` with a fresh log; everything is torn down afterwards.
    package func withTestLog<T>(on cluster: NATSTestCluster? = nil, _ configure: (inout MusterConfiguration) -> Void = { _ in },
                               _ body: (TestLog) async throws -> T) async throws -> T {
        let env = try await TestLog.start(apps: self, on: cluster, configure)
        do {
            let result = try await body(env)
            await env.stop()
            return result
        } catch {
            await env.stop()
            throw error
        }
    }

    /// The roles `names` asks for (every role by default) on a fresh log: their routes on one
    /// router and their long-running parts (folds, processors) running.
    /// - Parameter live: serve on a real socket with the process's own application (fast paths in
    ///   the channel pipeline included) instead of calling the router directly.
    package func withTestApp(_ names: [String] = ["all"], live: Bool = false, configure: (inout MusterConfiguration) -> Void = { _ in },
                            _ body: @escaping @Sendable (TestApp) async throws -> Void) async throws {
        try await withTestLog({ configuration in
            if live {
                // The live test client opens its keep-alive connection before it has a request to
                // send and never opens another: on a loaded machine a test's setup outlasts the
                // 10 s a request head is given, and the gate would close it under the client.
                configuration.connectionLimits.headTimeout = .seconds(600)
                configuration.connectionLimits.idleTimeout = .seconds(600)
            }
            configure(&configuration)
            if live { configuration.httpPort = 0 } // any free port
        }) { env in
            let modules = self.modules(try ServiceRole.resolve(names), environment: env.environment)
            let services = self.services(of: modules, environment: env.environment)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for service in services { group.addTask { try await service.run() } }
                try await env.foldsOpened()
                if live {
                    let app = try MusterHTTP.makeApplication(environment: env.environment, modules: modules)
                    try await app.test(.live) { client in try await body(TestApp(env: env, client: client)) }
                } else {
                    let app = Application(router: try MusterHTTP.makeRouter(environment: env.environment, modules: modules))
                    try await app.test(.router) { client in try await body(TestApp(env: env, client: client)) }
                }
                group.cancelAll()
            }
        }
    }

    /// The process's own HTTP application on a real socket, without a test client of its own (whose
    /// keep-alive connection would meet the server's idle limit): `body` gets the port.
    package func withLiveServer(_ names: [String] = ["all"], on cluster: NATSTestCluster? = nil,
                               configure: (inout MusterConfiguration) -> Void = { _ in },
                               _ body: @escaping @Sendable (TestLog, Int) async throws -> Void) async throws {
        try await withTestLog(on: cluster, { configuration in
            configure(&configuration)
            configuration.httpPort = 0
        }) { env in
            let modules = self.modules(try ServiceRole.resolve(names), environment: env.environment)
            let services = self.services(of: modules, environment: env.environment)
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = try MusterHTTP.makeApplication(environment: env.environment, modules: modules) { port in portContinuation.yield(port) }
            let group = ServiceGroup(services: services + [app], logger: env.environment.logger)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else { throw TestServerError("the server did not start") }
                do {
                    try await env.foldsOpened()
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
}
