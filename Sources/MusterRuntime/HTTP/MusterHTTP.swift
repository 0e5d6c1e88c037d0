package import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging

/// The HTTP application of one `muster` process: every selected service's routes on one port,
/// behind the request-metrics, error-body and authentication middleware (`/metrics` itself is on
/// its own port).
package enum MusterHTTP {
    /// Throws `UndeclaredAccess` if a route was added without an access rule: the process does not start.
    package static func makeRouter(environment: MusterEnvironment, modules: [any MusterServiceModule]) throws -> Router<MusterRequestContext> {
        let router = Router(context: MusterRequestContext.self)
        // A span per request, continuing a caller's `traceparent`; its appends carry it on.
        if environment.configuration.tracing { router.add(middleware: TracingMiddleware()) }
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: ErrorBodyMiddleware(routes: environment.routes))
        // Inside the error bodies: a refusal the authenticator records is answered by a route's rule.
        router.add(middleware: AuthenticationMiddleware(authenticator(environment: environment, modules: modules)))
        let routes = Routes(router, table: environment.routes)
        HealthRoutes.add(to: routes, environment: environment, checks: modules.flatMap { $0.readiness(in: environment) })
        for module in modules { module.addRoutes(to: routes, environment: environment) }
        if let templates = environment.existing(PageTemplates.self) { PageTemplates.addStylesheet(to: routes, templates: templates) }
        for socket in modules.flatMap({ $0.webSockets(in: environment) }) { environment.routes.record(.get, socket.path, access: socket.access) }
        try environment.routes.requireDeclared(router)
        return router
    }

    static func authenticator(environment: MusterEnvironment, modules: [any MusterServiceModule]) -> any RequestAuthenticator {
        modules.lazy.compactMap { $0.authenticator(in: environment) }.first ?? NoCredentials()
    }

    package static func makeApplication(environment: MusterEnvironment, modules: [any MusterServiceModule],
                                       onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let router = try makeRouter(environment: environment, modules: modules)
        let fastPaths = FastPath.handlers(modules.flatMap { $0.fastPaths(in: environment) })
        let interimAnswers = InterimAnswerHandler.handlers(modules.flatMap { $0.interimAnswers(in: environment) })
        // A client's share of the connections is its address's; a trusted proxy carries many clients.
        var limits = environment.configuration.connectionLimits
        limits.exempt = environment.configuration.trustedProxies
        let gate = ConnectionGate.factory(limits)
        let connectionGuard = ConnectionGuardHandler.factory(environment.configuration.connectionLimits)
        let webSockets = modules.flatMap { $0.webSockets(in: environment) }
        let authenticator = authenticator(environment: environment, modules: modules)
        var logger = environment.logger
        logger[metadataKey: "component"] = "http"
        // New handlers for every connection: the gate on raw bytes first of all (FastPathChannel),
        // and behind the decoder the guard first, so it sees every request and answer.
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [connectionGuard()] + fastPaths.behindDecoder() + interimAnswers())
        let server = HTTPServerBuilder { responder in
            guard !webSockets.isEmpty else {
                return FastPathChannel(base: HTTP1Channel(responder: responder, configuration: http1), gate: gate, listener: fastPaths.listener)
            }
            let upgrading = HTTP1WebSocketUpgradeChannel(
                responder: responder,
                // Pings keep a silent socket's NAT mapping alive and find a phone that went away.
                configuration: .init(http1: http1, ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(30)))),
                shouldUpgrade: { request, channel, _ in
                    switch await WebSocketRoute.answer(for: request, in: webSockets, authenticator: authenticator) {
                    case .session(let session):
                        return .upgrade([:]) { inbound, outbound, context in try await session(inbound, outbound, context.logger) }
                    case .refused(let error):
                        // The framework answers a refused upgrade with an empty 400: the gate hands
                        // the guard the real answer to write instead.
                        channel.eventLoop.execute {
                            (try? channel.pipeline.syncOperations.handler(type: ConnectionGate.self))?.refusedUpgrade = error
                        }
                        return .dontUpgrade
                    case nil:
                        return .dontUpgrade
                    }
                })
            return FastPathChannel(base: upgrading, gate: gate, listener: fastPaths.listener)
        }
        return Application(
            router: router,
            server: server,
            // A backlog of 1024, not NIO's 256: after a deploy every app reconnects at once, and a full
            // queue resets connections before the guard (at most 4096 at a time) ever sees them.
            configuration: .init(address: .hostname(environment.configuration.httpHost, port: environment.configuration.httpPort),
                                 serverName: "muster", backlog: 1024),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}
