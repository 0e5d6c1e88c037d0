import Synchronization

/// Who has a live socket open on this process now: their devices hear of changes there, and the
/// others get a push for what is urgent. Per process (a person connected to another ingest is
/// counted absent there, and gets a push as well: one too many, never one too few).
public final class FieldPresence: Sendable {
    private let sockets = Mutex<[String: Int]>([:])

    public init() {}

    func arrived(_ personId: String) {
        sockets.withLock { $0[personId, default: 0] += 1 }
    }

    func left(_ personId: String) {
        sockets.withLock { sockets in
            if let open = sockets[personId], open > 1 { sockets[personId] = open - 1 } else { sockets[personId] = nil }
        }
    }

    public func isConnected(_ personId: String) -> Bool {
        sockets.withLock { $0[personId] != nil }
    }
}
