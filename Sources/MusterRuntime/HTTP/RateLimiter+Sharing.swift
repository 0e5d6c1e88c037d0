package import Foundation

/// Two instances behind one gateway share a client's bucket: each says which tokens it took,
/// and takes as many from its own bucket for that client (floored at an empty bucket's debt).
extension RateLimiter: SharedPart {
    package func outgoing(now: ContinuousClock.Instant) -> Data? {
        let taken = drainTaken()
        guard !taken.isEmpty else { return nil }
        return try? JSONEncoder().encode(taken)
    }

    package func incoming(_ data: Data, from instance: String, now: ContinuousClock.Instant) {
        guard let taken = try? JSONDecoder().decode([String: Int].self, from: data) else { return }
        for (client, count) in taken.prefix(100_000) where count > 0 && client.utf8.count <= 256 {
            takenElsewhere(client, count: min(count, perMinute), now: now)
        }
    }
}
