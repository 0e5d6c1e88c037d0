package import MusterLog
import Synchronization

/// The event processors of this process by their consumer's name, so a dead letter one of them
/// filed can be handed back to it once its cause is fixed (the operator console's replay).
package final class DeadLetterReplays: Sendable {
    private let processors = Mutex<[String: EventProcessor]>([:])

    package init() {}

    /// The process's registry.
    package static func shared(in environment: MusterEnvironment) -> DeadLetterReplays {
        environment.shared { DeadLetterReplays() }
    }

    package func register(_ processor: EventProcessor) {
        processors.withLock { $0[processor.consumerName] = processor }
    }

    /// The processor that filed dead letters as `consumer`, if this process runs it.
    package func processor(_ consumer: String) -> EventProcessor? {
        processors.withLock { $0[consumer] }
    }
}
