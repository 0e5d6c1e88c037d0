import Synchronization

/// Sign-in attempts per account and per client address, in fixed windows: past `limit` failures
/// of one account in `window`, or `addressLimit` attempts from one address (0: no address limit),
/// the next attempt is refused before any password is hashed, with the seconds until the window
/// ends. A success clears the account's count. Memory is bounded: past `maxEntries` tracked keys
/// the expired windows go.
public final class AttemptLimiter: Sendable {
    struct Window { var count: Int; var start: ContinuousClock.Instant }

    public let limit: Int
    public let addressLimit: Int
    public let window: Duration
    let maxEntries: Int
    private let accounts = Mutex<[String: Window]>([:])
    private let addresses = Mutex<[String: Window]>([:])

    public init(limit: Int = 5, addressLimit: Int = 60, window: Duration = .seconds(900), maxEntries: Int = 100_000) {
        self.limit = limit
        self.addressLimit = addressLimit
        self.window = window
        self.maxEntries = maxEntries
    }

    /// Counts an attempt from `address`; the seconds to wait when either limit is reached.
    public func admit(account: String, address: String, now: ContinuousClock.Instant = .now) -> Int? {
        let accountWait = accounts.withLock { Self.wait(&$0, account, limit: limit, window: window, now: now, counting: false) }
        let addressWait = addressLimit == 0 ? nil : addresses.withLock { table in
            if table.count > maxEntries { table = table.filter { now - $0.value.start < window } }
            return Self.wait(&table, address, limit: addressLimit, window: window, now: now, counting: true)
        }
        return [accountWait, addressWait].compactMap { $0 }.max()
    }

    public func failed(account: String, now: ContinuousClock.Instant = .now) {
        accounts.withLock { table in
            if table.count > maxEntries { table = table.filter { now - $0.value.start < window } }
            var entry = table[account].flatMap { now - $0.start < window ? $0 : nil } ?? Window(count: 0, start: now)
            entry.count += 1
            table[account] = entry
        }
    }

    public func succeeded(account: String) {
        _ = accounts.withLock { $0.removeValue(forKey: account) }
    }

    private static func wait(_ table: inout [String: Window], _ key: String, limit: Int, window: Duration,
                             now: ContinuousClock.Instant, counting: Bool) -> Int? {
        var entry = table[key].flatMap { now - $0.start < window ? $0 : nil } ?? Window(count: 0, start: now)
        if entry.count >= limit {
            let left = window - (now - entry.start)
            return max(1, Int(left.components.seconds) + 1)
        }
        if counting {
            entry.count += 1
            table[key] = entry
        }
        return nil
    }
}
