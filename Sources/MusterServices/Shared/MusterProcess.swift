import Foundation
import Hummingbird
import Logging
import Metrics
import MusterEvents
import MusterLog
import MusterNATS
import MusterAnalytics
import MusterOPL
import MusterPlatform
import MusterRuntime
import Prometheus
import ServiceLifecycle

/// Puts one `muster serve …` process together: the connection, the log, the chosen services,
/// one HTTP port, discovery, and the order they start and stop in.
public enum MusterProcess {
    /// Every service `muster serve` knows, in start order.
    public static let serviceNames = ["ingest", "geocode", "moderation", "collector", "notifier", "query"]

    /// Every event type of every domain module.
    public static var catalog: EventCatalog {
        var catalog = EventCatalog()
        catalog.merge(.platform)
        catalog.merge(.opl)
        catalog.merge(.analytics)
        return catalog
    }

    /// Every scope a route asks for; a key with any other scope could open nothing.
    public static let scopes: [String] = ([PlatformRoutes.adminScope] + OPLScopes.all + AnalyticsScopes.all).sorted()

    /// Resolves `all` and checks names, with an error that lists what exists.
    public static func resolve(_ names: [String]) throws -> [String] {
        let wanted = names.isEmpty || names.contains("all") ? serviceNames : names
        for name in wanted where !serviceNames.contains(name) {
            throw ConfigurationError("unknown service \(name); known: \(serviceNames.joined(separator: ", ")) or all")
        }
        return serviceNames.filter(wanted.contains)
    }

    public static func modules(_ names: [String], environment: MusterEnvironment) -> [any MusterServiceModule] {
        var platform: PlatformKit?
        var opl: OPLKit?
        var analytics: AnalyticsKit?
        func kit() -> PlatformKit {
            if let platform { return platform }
            let made = PlatformKit(environment: environment)
            platform = made
            return made
        }
        func oplKit() -> OPLKit {
            if let opl { return opl }
            let made = OPLKit(environment: environment)
            opl = made
            return made
        }
        func analyticsKit() -> AnalyticsKit {
            if let analytics { return analytics }
            let made = AnalyticsKit(environment: environment)
            analytics = made
            return made
        }
        // A projection several services read is run once, by the first of them.
        var started = Set<String>()
        func runners(keys: Bool = true, opl: Bool = true, analytics: Bool = false, funnel: Bool = false) -> [any Service] {
            var runners: [any Service] = []
            if keys, started.insert("keys").inserted { runners.append(kit().keys) }
            if opl, started.insert("opl").inserted { runners.append(oplKit().runner) }
            if analytics, started.insert("analytics").inserted {
                environment.track(analyticsKit().runner)
                runners.append(analyticsKit().runner)
            }
            if funnel, started.insert("funnel").inserted {
                environment.track(analyticsKit().funnels)
                runners.append(analyticsKit().funnels)
            }
            return runners
        }
        return names.map { name -> any MusterServiceModule in
            switch name {
            case "ingest": IngestService(SharedParts(platform: kit(), opl: oplKit(), runners: runners()))
            case "geocode": GeocodeService(platform: kit(), rate: RateLimiter(perMinute: environment.configuration.readRatePerMinute),
                                           runners: runners(opl: false),
                                           geocoder: Geocoder(path: environment.configuration.gazetteerPath,
                                                             upstream: environment.configuration.geocodeUpstream.map { NominatimClient(searchURL: $0) }))
            case "moderation": ModerationService(SharedParts(platform: kit(), opl: oplKit(), runners: runners()))
            case "collector": CollectorService(platform: kit(), analytics: analyticsKit(), runners: runners(opl: false))
            case "notifier": NotifierService(analytics: analyticsKit(), runners: runners(keys: false, opl: false, analytics: true))
            case "query": QueryService(SharedParts(platform: kit(), opl: oplKit(), runners: runners(analytics: true, funnel: true)),
                                       analytics: analyticsKit())
            default: preconditionFailure("resolve() admits only known names")
            }
        }
    }

    /// Runs until SIGTERM/SIGINT, then stops in reverse order within `shutdownGrace`: HTTP stops
    /// taking requests and finishes those in flight, projections save, NATS drains.
    public static func run(_ names: [String], configuration: MusterConfiguration, logger: Logger,
                           metrics: PrometheusCollectorRegistry,
                           onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let names = try resolve(names)
        let connection = try await NATSConnection.connect(configuration.nats, logger: logger)
        let environment = MusterEnvironment(configuration: configuration, logger: logger, connection: connection,
                                            catalog: catalog, metrics: metrics, source: "muster/\(configuration.instance)")
        do {
            // A cluster that starts with us has no JetStream leader for a few seconds.
            try await environment.log.bootstrap(patience: .seconds(60), logger: logger)
        } catch {
            await connection.close()
            throw error
        }
        let modules = modules(names, environment: environment)
        let http = MusterHTTP.makeApplication(environment: environment, modules: modules, onServerRunning: onServerRunning)
        var discovery: [any Service] = []
        for (index, module) in modules.enumerated() {
            let endpoints = module.endpoints(in: environment) + (index == 0 ? ProjectionEndpoints.make(environment: environment) : [])
            discovery.append(MicroService(connection: connection, name: "muster-\(module.name)", version: MusterVersion.current,
                                          description: module.summary, metadata: ["instance": configuration.instance],
                                          endpoints: endpoints))
        }
        MetricsRoutes.recordStart(environment: environment)
        let metricsHTTP: [any Service] = configuration.metricsPort.map { port in
            [MetricsRoutes.makeApplication(environment: environment, port: port) { bound in
                logger.notice("metrics", metadata: ["url": "http://\(configuration.httpHost):\(bound)/metrics"])
            }]
        } ?? []
        // Started in this order, stopped in reverse: NATS last, HTTP first.
        let services: [any Service] = [connection] + modules.flatMap { $0.services(in: environment) } + discovery + metricsHTTP + [http]
        var groupConfiguration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                                           failureTerminationBehavior: .gracefullyShutdownGroup) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGrace
        groupConfiguration.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        logger.info("muster serving", metadata: ["services": "\(names.joined(separator: ","))",
                                                "http": "\(configuration.httpHost):\(configuration.httpPort)"])
        try await group.run()
    }
}

public enum MusterVersion {
    public static let current = "0.1.0"
}
