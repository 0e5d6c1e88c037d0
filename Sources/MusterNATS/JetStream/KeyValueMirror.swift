package import Foundation
package import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// A process's copy of one KV bucket, kept current by a consumer of its own, so that a value read
/// far more often than it is written (a person's key, read at every sign-in) is answered from
/// memory instead of by a request to the server. Measured on bench/offleash.sh's sign-in row: the
/// direct get of a person's key cost 0.27 ms of nats-server's CPU and about 0.3 ms of ours, a
/// quarter of what a sign-in costs besides its password hash.
///
/// What it knows, it may know late, by one delivery: a value another process wrote is unknown until
/// it is delivered (`value` answers nil: ask the server), and a value another process deleted is
/// known deleted when its marker is delivered, milliseconds later (as a replica behind, which a
/// direct get may ask, knows it late). What this process writes or deletes it records at once
/// (`stored`, `removed`), and an older delivery never overwrites a newer revision.
///
/// A delivery lost (with a connection, or a consumer the server dropped) shows as a gap in the
/// consumer's sequence, or, when all is quiet, as the server having delivered more than arrived.
/// Then the copy is dropped whole, every read goes to the server, and a new consumer delivers the
/// bucket again from the start.
package final class KeyValueMirror: Service, Sendable {
    package let jetStream: JetStream
    package let bucket: String
    let replicas: Int
    let erasable: Bool
    /// How often a quiet consumer is checked against the server for deliveries that never arrived.
    let checkEvery: Duration
    let logger: Logger
    private let state = Mutex(State())
    /// `muster_kv_copy_keys` (values and deletion markers held), `muster_kv_copy_current` (1 or 0) and
    /// `muster_kv_copy_drops_total`, by bucket.
    private let keysGauge: Gauge
    private let currentGauge: Gauge
    private let drops: Counter

    struct State {
        /// Each key's latest revision as heard, nil value for a deleted one.
        var entries: [String: Entry] = [:]
        /// Whether everything the bucket held when the consumer started has been delivered.
        var current = false
        /// Bumped at each reset: a delivery meant for a dropped copy is not applied to the next.
        var generation = 0
        /// The consumer delivering it.
        var consumer: String?
    }

    struct Entry {
        var value: Data?
        var revision: UInt64
    }

    /// - Parameters: `bucket`, `replicas` and `erasable` as `KeyValue.open` takes them: the mirror
    ///   opens (or makes) the bucket itself before it follows it.
    package init(_ jetStream: JetStream, bucket: String, replicas: Int = 1, erasable: Bool = false,
                checkEvery: Duration = .seconds(5), logger: Logger = Logger(label: "muster.kv-mirror")) {
        self.jetStream = jetStream
        self.bucket = bucket
        self.replicas = replicas
        self.erasable = erasable
        self.checkEvery = checkEvery
        self.logger = logger
        keysGauge = Gauge(label: "muster_kv_copy_keys", dimensions: [("bucket", bucket)])
        currentGauge = Gauge(label: "muster_kv_copy_current", dimensions: [("bucket", bucket)])
        drops = Counter(label: "muster_kv_copy_drops_total", dimensions: [("bucket", bucket)])
    }

    /// The key's value when this copy has caught up with the bucket and holds one; nil when it does
    /// not know (still catching up, a key it has not heard of, or a deleted one): ask the server.
    package func value(_ key: String) -> Data? {
        state.withLock { $0.current ? $0.entries[key]?.value : nil }
    }

    /// Whether the copy has caught up with the bucket (and answers from memory).
    package var isCurrent: Bool { state.withLock { $0.current } }

    /// The name of the consumer that delivers the bucket to this copy, once it is made.
    package var consumer: String? { state.withLock { $0.consumer } }

    /// A value this process stored, known before its delivery comes round.
    package func stored(_ key: String, _ value: Data, revision: UInt64) {
        record(key, Entry(value: value, revision: revision), generation: nil)
    }

    /// A key this process deleted (`revision`: its delete or purge marker's), forgotten at once.
    package func removed(_ key: String, revision: UInt64) {
        record(key, Entry(value: nil, revision: revision), generation: nil)
    }

    private func record(_ key: String, _ entry: Entry, generation: Int?) {
        let count: Int? = state.withLock { state in
            if let generation, generation != state.generation { return nil }
            if let known = state.entries[key], known.revision >= entry.revision { return nil }
            state.entries[key] = entry
            return state.current ? state.entries.count : nil
        }
        if let count { keysGauge.record(count) }
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await self.follow() }
    }

    private func follow() async {
        var failures = 0
        while !Task.isCancelled {
            let name = "mirror_\(bucket)_\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            do {
                try await followOnce(consumer: name)
            } catch is CancellationError {
            } catch {
                if isCurrent { failures = 0 } // it was working: a new outage, said again and retried soon
                failures += 1
                drops.increment()
                if failures == 1 || failures % 20 == 0 {
                    logger.warning("the copy of KV bucket \(bucket) is dropped until it is delivered again (reads go to the server): \(error)")
                }
            }
            reset()
            _ = try? await jetStream.deleteConsumer(stream: KeyValue(jetStream: jetStream, bucket: bucket).streamName, name: name)
            // A server that is gone is asked again soon, not in a tight loop.
            do { try await Task.sleep(for: .milliseconds(min(5_000, 100 * (1 << min(failures, 6))))) } catch { return }
        }
    }

    private func reset() {
        state.withLock { state in state = State(generation: state.generation + 1) }
        currentGauge.record(0)
        keysGauge.record(0)
    }

    struct Gap: Error, CustomStringConvertible {
        var expected: UInt64
        var got: UInt64
        var description: String { "deliveries \(expected)-\(got - 1) never arrived" }
    }

    private func followOnce(consumer name: String) async throws {
        let kv = try await KeyValue.open(jetStream, bucket: bucket, replicas: replicas, erasable: erasable)
        var config = ConsumerConfig(durableName: name)
        config.deliverPolicy = .lastPerSubject
        config.ackPolicy = .none
        config.filterSubject = kv.subject(">")
        // The server removes it when this process is gone; a process that lost it starts another.
        config.inactiveThreshold = 120 * 1_000_000_000
        config.memStorage = true
        config.numReplicas = 1
        let created = try await jetStream.ensureConsumer(stream: kv.streamName, config)
        let generation = state.withLock { state in
            state.consumer = name
            return state.generation
        }
        if created.numPending == 0 { caughtUp(generation) }

        var next: UInt64 = 1 // the consumer sequence of the next delivery
        var deliveredAhead: UInt64?
        var iterator = PullConsumer(jetStream, stream: kv.streamName, consumer: name, batch: 256, expires: .seconds(30),
                                    idleAfter: checkEvery).makeAsyncIterator()
        while !Task.isCancelled {
            switch try await iterator.nextEvent() {
            case nil:
                return
            case .message(let message):
                guard message.delivery.consumerSequence == next else { throw Gap(expected: next, got: message.delivery.consumerSequence) }
                next += 1
                if let key = kv.key(ofSubject: message.subject) {
                    let operation = message.header("KV-Operation")
                    let deleted = operation == "DEL" || operation == "PURGE"
                    record(key, Entry(value: deleted ? nil : message.payload, revision: message.delivery.streamSequence), generation: generation)
                }
                if message.delivery.pending == 0 { caughtUp(generation) }
            case .idle:
                // Quiet: has the server delivered what never came? A delivery on its way now
                // arrives before the next check, so only a count still short then is a gap.
                let info = try await jetStream.consumerInfo(stream: kv.streamName, name: name)
                if let ahead = deliveredAhead, ahead >= next { throw Gap(expected: next, got: ahead + 1) }
                deliveredAhead = info.delivered.consumerSeq >= next ? info.delivered.consumerSeq : nil
                if deliveredAhead == nil, info.numPending == 0 { caughtUp(generation) }
            }
        }
    }

    private func caughtUp(_ generation: Int) {
        let count: Int? = state.withLock { state in
            guard state.generation == generation, !state.current else { return nil }
            state.current = true
            return state.entries.count
        }
        if let count {
            currentGauge.record(1)
            keysGauge.record(count)
            logger.info("KV bucket \(bucket) is copied in memory: \(count) keys")
        }
    }
}
