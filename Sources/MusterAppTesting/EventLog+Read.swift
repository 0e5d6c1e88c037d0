package import MusterEvents
package import MusterLog
import MusterNATS

extension EventLog {
    /// Every event on `filter`, in order, read through a throwaway consumer.
    package func read(filter: String) async throws -> [RecordedEvent] {
        var config = ConsumerConfig(durableName: "test_read_\(UInt32.random(in: 0...UInt32.max))")
        config.ackPolicy = .none
        config.filterSubject = filter
        config.inactiveThreshold = 10_000_000_000
        let info = try await jetStream.ensureConsumer(stream: configuration.eventsStream, config)
        guard info.numPending > 0, let durable = config.durableName else { return [] }
        var iterator = PullConsumer(jetStream, stream: configuration.eventsStream, consumer: durable, batch: 256,
                                    expires: .milliseconds(300)).makeAsyncIterator()
        var events: [RecordedEvent] = []
        while UInt64(events.count) < info.numPending, case .messages(let messages)? = try await iterator.nextBatch(max: 256) {
            for message in messages {
                events.append(try catalog.decode(subject: message.subject, sequence: message.delivery.streamSequence, payload: message.payload))
            }
        }
        return events
    }
}
