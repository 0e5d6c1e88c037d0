package import Foundation
package import MusterRuntime
import Synchronization

/// Who has a live socket open now, on this process or another instance of it: their devices hear
/// of changes there, and the others get a push for what is urgent. Shared through `Sharing`: each
/// instance says whom it has (on a change, and every 5 s), and forgets an instance not heard from
/// for 15 s (a process killed without a word: at most that long, a push is skipped for someone
/// who has gone).
package final class FieldPresence: Sendable {
    static let heartbeat: Duration = .seconds(5)
    static let forgetAfter: Duration = .seconds(15)

    struct State {
        var sockets: [String: Int] = [:]
        var changed = false
        var lastSent: ContinuousClock.Instant?
        var remote: [String: (persons: Set<String>, seen: ContinuousClock.Instant)] = [:]
    }

    private let state = Mutex<State>(State())

    package init() {}

    /// The process's presence, shared with the other instances (`Sharing`): the live sockets of
    /// the ingest role say who is connected, the notifier's refresh asks.
    package static func shared(in environment: MusterEnvironment) -> FieldPresence {
        environment.shared {
            let presence = FieldPresence()
            environment.sharing.register(presence, as: "field-presence")
            return presence
        }
    }

    func arrived(_ personId: String) {
        state.withLock { state in
            state.sockets[personId, default: 0] += 1
            state.changed = true
        }
    }

    func left(_ personId: String) {
        state.withLock { state in
            if let open = state.sockets[personId], open > 1 { state.sockets[personId] = open - 1 } else { state.sockets[personId] = nil }
            state.changed = true
        }
    }

    package func isConnected(_ personId: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            state.sockets[personId] != nil
                || state.remote.values.contains { now - $0.seen < Self.forgetAfter && $0.persons.contains(personId) }
        }
    }
}

extension FieldPresence: SharedPart {
    package func outgoing(now: ContinuousClock.Instant) -> Data? {
        let persons: [String]? = state.withLock { state in
            guard state.changed || state.lastSent.map({ now - $0 >= Self.heartbeat }) ?? true else { return nil }
            if !state.changed && state.sockets.isEmpty && state.lastSent != nil { return nil } // nobody here, said already
            state.changed = false
            state.lastSent = now
            return Array(state.sockets.keys)
        }
        return persons.flatMap { try? JSONEncoder().encode($0) }
    }

    package func incoming(_ data: Data, from instance: String, now: ContinuousClock.Instant) {
        guard let persons = try? JSONDecoder().decode([String].self, from: data) else { return }
        state.withLock { state in
            state.remote = state.remote.filter { now - $0.value.seen < Self.forgetAfter }
            state.remote[instance] = persons.isEmpty ? nil : (Set(persons.prefix(1_000_000)), now)
        }
    }
}
