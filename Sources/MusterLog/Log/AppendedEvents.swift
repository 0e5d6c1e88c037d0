package import Foundation
package import MusterEvents
import Synchronization

/// The last events this process appended of `StoredExactly` types, each with the bytes it
/// publishes. A projection in the same process that is delivered one of them folds the value
/// appended instead of scanning and decoding the bytes again: for a 500-change sync that read was
/// a tenth of the request's cost, and its result is the value the append started from.
///
/// An event is kept before it is published (a fold may be delivered it before the append hears its
/// acknowledgement) and is found by its subject and the very bytes delivered, never by a sequence
/// or an id: a message with those bytes decodes to that value, whoever stored it and however
/// often, so a failed or repeated publish leaves nothing wrong behind. Bounded by count and bytes,
/// oldest out first: a fold that falls behind reads the bytes as before.
package final class AppendedEvents: Sendable {
    struct Entry: Sendable {
        let bytes: Data
        let event: RecordedEvent
    }

    private struct Store {
        var bySubject: [String: [Entry]] = [:]
        /// Oldest first from `head` (what is before it is gone: dropped in bulk, not one by one).
        var order: [(subject: String, bytes: Int)] = []
        var head = 0
        var bytes = 0
        var count: Int { order.count - head }
    }

    /// A live fold is a few hundred appends behind at most (a notifier appends from hundreds of
    /// tasks at once); one further behind reads the bytes. The values take a few times their bytes.
    static let maxEntries = 1024
    static let maxBytes = 8 << 20

    private let store = Mutex(Store())
    /// How many are kept: folds in a process that appends none pay one atomic load a message.
    private let count = Atomic<Int>(0)

    init() {}

    /// Keeps an event about to be published under `subject` as `bytes` (its sequence is the
    /// delivery's, set when it is found).
    func record(_ event: RecordedEvent, subject: String, bytes: Data) {
        store.withLock { store in
            store.bySubject[subject, default: []].append(Entry(bytes: bytes, event: event))
            store.order.append((subject, bytes.count))
            store.bytes += bytes.count
            while store.count > Self.maxEntries || (store.bytes > Self.maxBytes && store.count > 1) {
                let gone = store.order[store.head]
                store.head += 1
                store.bytes -= gone.bytes
                store.bySubject[gone.subject]?.removeFirst()
                if store.bySubject[gone.subject]?.isEmpty == true { store.bySubject[gone.subject] = nil }
            }
            if store.head >= Self.maxEntries {
                store.order.removeFirst(store.head)
                store.head = 0
            }
            count.store(store.count, ordering: .relaxed)
        }
    }

    /// The event appended here that the message delivered at `sequence` stores, if it is still
    /// kept: same subject, same bytes.
    package func event(at sequence: UInt64, subject: String, payload: Data) -> RecordedEvent? {
        guard count.load(ordering: .relaxed) > 0 else { return nil }
        // Compared outside the lock: a batch's bytes take a while to compare.
        let candidates = store.withLock { $0.bySubject[subject] ?? [] }
        guard var event = candidates.last(where: { $0.bytes.count == payload.count && $0.bytes == payload })?.event else { return nil }
        event.sequence = sequence
        return event
    }
}
