import Hummingbird
import Logging

/// The HTTP application of one `muster` process: every selected service's routes on one port,
/// behind the error-body and metrics middleware.
public enum MusterHTTP {
    public static func makeRouter(environment: MusterEnvironment, modules: [any MusterServiceModule]) -> Router<MusterRequestContext> {
        let router = Router(context: MusterRequestContext.self)
        router.add(middleware: ErrorBodyMiddleware())
        router.add(middleware: MetricsMiddleware())
        let routes = Routes(router, table: environment.routes)
        HealthRoutes.add(to: routes, environment: environment)
        for module in modules { module.addRoutes(to: routes, environment: environment) }
        return router
    }

    public static func makeApplication(environment: MusterEnvironment, modules: [any MusterServiceModule],
                                       onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = makeRouter(environment: environment, modules: modules)
        let fastPaths = FastPathHandler.handlers(modules.flatMap { $0.fastPaths(in: environment) })
        var logger = environment.logger
        logger[metadataKey: "component"] = "http"
        return Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: fastPaths())), // one handler per connection
            configuration: .init(address: .hostname(environment.configuration.httpHost, port: environment.configuration.httpPort),
                                 serverName: "muster"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}
