import Foundation
package import Logging
package import MusterEvents
package import MusterLog
package import MusterNATS
package import Prometheus
package import ServiceLifecycle
import Synchronization

/// What every service of one `muster` process shares: configuration, the NATS connection, the
/// log, the projections it runs (for `/ready`), the route table and the metrics registry.
package final class MusterEnvironment: Sendable {
    package let configuration: MusterConfiguration
    package let logger: Logger
    package let connection: NATSConnection
    package let log: EventLog
    package let routes = RouteTable()
    package let metrics: PrometheusCollectorRegistry
    package let snapshots: SnapshotStore
    /// The folds this process runs: made on first request, run once.
    package let projections: ProjectionRegistry
    /// The apps the process serves: their names, kinds, roles and key scopes.
    package let apps: AppDirectory
    /// Limits and presence shared with the other instances of the same services.
    package let sharing: Sharing
    /// Pieces several roles of one process share (`shared(_:)`), by type.
    private let sharedParts = Mutex<[ObjectIdentifier: any Sendable]>([:])
    /// Services of shared pieces, each run once however many roles ask (`runOnce(_:)`).
    private let onceServices = Mutex<[ObjectIdentifier: any Service]>([:])

    package init(configuration: MusterConfiguration, logger: Logger, connection: NATSConnection, catalog: EventCatalog,
                metrics: PrometheusCollectorRegistry, source: String, apps: AppDirectory) {
        self.configuration = configuration
        self.apps = apps
        self.sharing = Sharing(connection: connection, logger: logger)
        self.logger = logger
        self.connection = connection
        self.log = EventLog(jetStream: JetStream(connection), catalog: catalog, configuration: configuration.logConfiguration,
                            source: source, logger: logger)
        self.metrics = metrics
        self.snapshots = SnapshotStore(directory: configuration.projectionsDirectory)
        self.projections = ProjectionRegistry(log: log, store: snapshots, instance: configuration.instance, logger: logger)
    }

    package var jetStream: JetStream { log.jetStream }
    /// Which scopes a key of each app may carry.
    package var keyScopes: KeyScopes { apps.keyScopes }
    package var catalog: EventCatalog { log.catalog }

    /// The process's one `T`, made by `make` on first request. `make` may ask for other shared
    /// pieces; if two callers race, the first one stored wins and both get it.
    package func shared<T: Sendable>(_ type: T.Type = T.self, _ make: () -> T) -> T {
        let key = ObjectIdentifier(T.self)
        if let existing = sharedParts.withLock({ $0[key] }) as? T { return existing }
        let made = make()
        return sharedParts.withLock { parts in
            if let existing = parts[key] as? T { return existing }
            parts[key] = made
            return made
        }
    }

    /// Runs `service` once in the process, however many roles or apps ask for it: a shared piece
    /// (the mail outbox) that several roles use, whose `run()` may be entered only once.
    package func runOnce<S: Service & AnyObject>(_ service: S) {
        onceServices.withLock { $0[ObjectIdentifier(service)] = service }
    }

    /// What `runOnce(_:)` collected, for the process to run.
    package var processServices: [any Service] { onceServices.withLock { Array($0.values) } }

    /// The process's one `T` if some role made it while the process was composed; never makes one.
    package func existing<T: Sendable>(_ type: T.Type = T.self) -> T? {
        sharedParts.withLock { $0[ObjectIdentifier(T.self)] } as? T
    }

    /// The status of every projection this process runs, in the order they were asked for.
    package func projectionReports() async -> [ProjectionStatusReport] {
        var reports: [ProjectionStatusReport] = []
        for projection in projections.all { reports.append(await projection.status()) }
        return reports
    }
}
