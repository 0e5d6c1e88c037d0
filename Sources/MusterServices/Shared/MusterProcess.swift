import Foundation
import Hummingbird
package import Logging
import Metrics
import MusterAnalytics
import MusterField
import MusterEvents
import MusterLog
import MusterNATS
import MusterNotifications
import MusterOFFLEASH
import MusterPush
import MusterPoP
import MusterShieldAI
import MusterOPL
import MusterPlatform
package import MusterRuntime
package import Prometheus
import ServiceLifecycle
import UnixSignals

/// Puts one `muster serve …` process together: the connection, the log, the chosen services,
/// one HTTP port, discovery, and the order they start and stop in.
package enum MusterProcess {
    /// Every app this build serves: the one list an app is added to.
    package static let apps = MusterApps([PlatformApp(), OPLApp(), AnalyticsApp(), OFFLEASHApp(), PushApp(), NotificationsApp(), ShieldAIApp(), PoPApp(), FieldApp()])

    /// Runs until SIGTERM/SIGINT, then stops in reverse order within `shutdownGrace`: HTTP stops
    /// taking requests and finishes those in flight, projections save, NATS drains.
    package static func run(_ names: [String], configuration: MusterConfiguration, logger: Logger,
                           metrics: PrometheusCollectorRegistry,
                           onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let names = try ServiceRole.resolve(names)
        let tracing = try MusterTracing.bootstrap(roles: names, logger: logger)
        let configuration = { var traced = configuration; traced.tracing = tracing != nil; return traced }()
        let connection = try await NATSConnection.connect(configuration.nats, logger: logger)
        let environment = MusterEnvironment(configuration: configuration, logger: logger, connection: connection,
                                            catalog: apps.catalog, metrics: metrics, source: "muster/\(configuration.instance)",
                                            apps: apps.directory)
        do {
            // A cluster that starts with us has no JetStream leader for a few seconds.
            try await environment.log.bootstrap(patience: .seconds(60), logger: logger)
        } catch {
            await connection.close()
            throw error
        }
        let modules = apps.modules(names, environment: environment)
        let http = try MusterHTTP.makeApplication(environment: environment, modules: modules, onServerRunning: onServerRunning)
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
        // Started in this order, stopped in reverse: the span exporter last, then NATS; HTTP first.
        let services: [any Service] = (tracing.map { [$0] } ?? []) + [connection] + apps.services(of: modules, environment: environment) + discovery + metricsHTTP + [http]
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

package enum MusterVersion {
    package static let current = "0.1.0"
}
