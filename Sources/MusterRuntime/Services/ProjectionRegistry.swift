import Logging
package import MusterLog
package import ServiceLifecycle
import Synchronization

/// The folds one process runs. Each is made once, on first request, whichever role asks first;
/// asking is what makes the process run it (`services`), and what `/ready`, the reload endpoints
/// and `muster replay` list. A process that takes only `collector` asks for the keys fold and no
/// other, so it runs no other.
package final class ProjectionRegistry: Sendable {
    private let log: EventLog
    private let store: SnapshotStore
    private let instance: String
    private let logger: Logger
    /// In the order they were first asked for; `started` once the process took them as services.
    private let runners = Mutex<(list: [any ProjectionStatus & Service], started: Bool)>(([], false))

    init(log: EventLog, store: SnapshotStore, instance: String, logger: Logger) {
        self.log = log
        self.store = store
        self.instance = instance
        self.logger = logger
    }

    /// The process's runner of `projection`, made now if nobody asked before.
    /// Ask while composing a role (in `MusterApp.add`), not while serving: a fold first asked for
    /// after the process started would never run, and says so in the log.
    package func runner<P: Projection>(_ projection: P.Type) -> ProjectionRunner<P> {
        let (runner, late) = runners.withLock { runners -> (ProjectionRunner<P>, Bool) in
            if let made = runners.list.first(where: { $0.projectionName == P.name }) as? ProjectionRunner<P> { return (made, false) }
            let made = ProjectionRunner(P.self, log: log, store: store, instance: instance, logger: logger)
            runners.list.append(made)
            return (made, runners.started)
        }
        if late { logger.error("projection asked for after start-up; it does not run", metadata: ["projection": "\(P.name)"]) }
        return runner
    }

    /// Every fold asked for so far, in that order.
    package var all: [any ProjectionStatus] { runners.withLock { $0.list } }

    /// The runners as services, for the process's service group: each runs once.
    package var services: [any Service] {
        runners.withLock { runners in
            runners.started = true
            return runners.list
        }
    }
}
