import Foundation
package import Logging
package import MusterNATS
import ServiceLifecycle
import Synchronization

/// Shares limits and presence between the instances of a service through core NATS: every
/// `interval` each registered part's changes go out on `muster.share.<part>.<instance>`, and what
/// the other instances send comes in on `muster.share.<part>.*`. Nothing is stored: a part's state is
/// what its instances said lately, so two instances enforce one limit (within an interval) and a
/// person connected to either is seen as connected. Messages lost while NATS is away only make
/// limits per instance for that while, as they were before.
package final class Sharing: Service, Sendable {
    package static let subjectPrefix = "muster.share"
    /// 16 hex digits, new each start: a subject token naming this process.
    package let instance: String
    let connection: NATSConnection
    let interval: Duration
    let logger: Logger
    private let parts = Mutex<[String: any SharedPart]>([:])
    private let listening = Mutex(false)

    /// True once every registered part's subject is subscribed (news sent before that is not heard here).
    package var isListening: Bool { listening.withLock { $0 } }

    package init(connection: NATSConnection, interval: Duration = .milliseconds(250), logger: Logger) {
        var generator = SystemRandomNumberGenerator()
        self.instance = String(format: "%016llx", generator.next() as UInt64)
        self.connection = connection
        self.interval = interval
        self.logger = logger
    }

    /// Shares `part` under `name` (letters, digits and dashes: one subject token).
    package func register(_ part: some SharedPart, as name: String) {
        parts.withLock { $0[name] = part }
    }

    package func run() async throws {
        // The parts are registered while the roles are put together, before the services run.
        var opened: [NATSSubscription] = []
        for name in parts.withLock({ $0.keys.sorted() }) {
            opened.append(try await connection.subscribe("\(Self.subjectPrefix).\(name).*", capacity: 4096))
        }
        let subscriptions = opened
        try? await connection.flush(timeout: .seconds(2)) // the server has the subscriptions: what others send now is heard
        listening.withLock { $0 = true }
        await withDiscardingTaskGroup { group in
            for subscription in subscriptions {
                group.addTask {
                    for await message in subscription.cancelOnGracefulShutdown() { self.receive(message) }
                }
            }
            group.addTask {
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try? await Task.sleep(for: self.interval)
                    self.send()
                }
                self.send() // what changed last, before the process goes (a presence part says it has no one)
                for subscription in subscriptions { subscription.unsubscribe() }
            }
        }
    }

    func send() {
        let now = ContinuousClock.now
        for (name, part) in parts.withLock({ $0 }) {
            guard let data = part.outgoing(now: now) else { continue }
            do {
                try connection.publish("\(Self.subjectPrefix).\(name).\(instance)", payload: data)
            } catch {
                logger.debug("sharing: not sent", metadata: ["part": "\(name)", "error": "\(error)"])
            }
        }
    }

    func receive(_ message: NATSMessage) {
        // muster.share.<name>.<instance>
        let tokens = message.subject.split(separator: ".")
        guard tokens.count == 4, let from = tokens.last, from != instance, let part = parts.withLock({ $0[String(tokens[2])] }) else { return }
        part.incoming(message.payload, from: String(from), now: .now)
    }
}
