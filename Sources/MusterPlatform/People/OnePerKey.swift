/// Runs one body per key at a time, in the order they came; other keys run alongside. A body runs
/// off the actor, which only hands the key from one caller to the next.
actor OnePerKey {
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func run<T: Sendable>(_ key: String, _ body: @Sendable () async throws -> T) async throws -> T {
        if busy.contains(key) {
            await withCheckedContinuation { waiting[key, default: []].append($0) } // handed the key by release
        } else {
            busy.insert(key)
        }
        defer { release(key) }
        return try await body()
    }

    private func release(_ key: String) {
        guard var queue = waiting[key], !queue.isEmpty else {
            busy.remove(key)
            return
        }
        let next = queue.removeFirst()
        waiting[key] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
