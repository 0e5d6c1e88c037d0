import Foundation
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import Prometheus
import Synchronization

/// What every service of one `muster` process shares: configuration, the NATS connection, the
/// log, the projections it runs (for `/ready`), the route table and the metrics registry.
public final class MusterEnvironment: Sendable {
    public let configuration: MusterConfiguration
    public let logger: Logger
    public let connection: NATSConnection
    public let log: EventLog
    public let routes = RouteTable()
    public let metrics: PrometheusCollectorRegistry
    public let snapshots: SnapshotStore
    private let projectionList = Mutex<[any ProjectionStatus]>([])

    public init(configuration: MusterConfiguration, logger: Logger, connection: NATSConnection, catalog: EventCatalog,
                metrics: PrometheusCollectorRegistry, source: String) {
        self.configuration = configuration
        self.logger = logger
        self.connection = connection
        self.log = EventLog(jetStream: JetStream(connection), catalog: catalog, configuration: configuration.logConfiguration,
                            source: source)
        self.metrics = metrics
        self.snapshots = SnapshotStore(directory: configuration.projectionsDirectory)
    }

    public var jetStream: JetStream { log.jetStream }
    public var catalog: EventCatalog { log.catalog }

    /// Registers a projection for `/ready`, `/api/platform/projections` and reload requests.
    public func track(_ projection: any ProjectionStatus) {
        projectionList.withLock { $0.append(projection) }
    }

    public var projections: [any ProjectionStatus] { projectionList.withLock { $0 } }

    /// The status of every tracked projection, in the order they were tracked.
    public func projectionReports() async -> [ProjectionStatusReport] {
        var reports: [ProjectionStatusReport] = []
        for projection in projections { reports.append(await projection.status()) }
        return reports
    }
}
