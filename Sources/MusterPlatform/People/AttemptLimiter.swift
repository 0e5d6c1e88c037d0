package import Foundation
import MusterRuntime
import Metrics
import Synchronization

/// Failed sign-ins per account and per client address, in fixed windows: past `limit` failures
/// of one account in `window`, or `addressLimit` failures from one address (0: no address limit),
/// the next attempt is refused before any password is hashed, with the seconds until the window
/// ends. Only failures count: a success clears its account's count and costs its address nothing,
/// so an office (or everyone behind a carrier's NAT) signing in all day is never locked out, while
/// an attacker guessing passwords is. Memory is bounded: past `maxEntries` tracked keys the
/// expired windows go.
package final class AttemptLimiter: Sendable {
    struct Window { var count: Int; var start: ContinuousClock.Instant }

    package let limit: Int
    package let addressLimit: Int
    package let window: Duration
    let maxEntries: Int
    private let accounts = Mutex<[String: Window]>([:])
    private let addresses = Mutex<[String: Window]>([:])
    /// What happened here since `Sharing` last asked: failures (account, address) and cleared accounts.
    private let news = Mutex<(failed: [[String]], cleared: [String])>(([], []))

    package init(limit: Int = 5, addressLimit: Int = 300, window: Duration = .seconds(900), maxEntries: Int = 100_000) {
        self.limit = limit
        self.addressLimit = addressLimit
        self.window = window
        self.maxEntries = maxEntries
    }

    /// The seconds to wait when the account's or the address's failures reached their limit.
    package func admit(account: String, address: String, now: ContinuousClock.Instant = .now) -> Int? {
        let accountWait = accounts.withLock { Self.wait($0, account, limit: limit, window: window, now: now) }
        let addressWait = addressLimit == 0 ? nil : addresses.withLock { Self.wait($0, address, limit: addressLimit, window: window, now: now) }
        return [accountWait, addressWait].compactMap { $0 }.max()
    }

    /// Counts a failure against the account and the address.
    package func failed(account: String, address: String, now: ContinuousClock.Instant = .now) {
        Counter(label: "muster_signin_failures_total", dimensions: [("method", "password")]).increment()
        countFailure(account: account, address: address, now: now)
        news.withLock { if $0.failed.count < 10_000 { $0.failed.append([account, address]) } }
    }

    package func succeeded(account: String) {
        _ = accounts.withLock { $0.removeValue(forKey: account) }
        news.withLock { if $0.cleared.count < 10_000 { $0.cleared.append(account) } }
    }

    func countFailure(account: String, address: String, now: ContinuousClock.Instant) {
        accounts.withLock { count(&$0, account, now: now) }
        if addressLimit > 0 { addresses.withLock { count(&$0, address, now: now) } }
    }

    private func count(_ table: inout [String: Window], _ key: String, now: ContinuousClock.Instant) {
        if table.count > maxEntries { table = table.filter { now - $0.value.start < window } }
        var entry = table[key].flatMap { now - $0.start < window ? $0 : nil } ?? Window(count: 0, start: now)
        entry.count += 1
        table[key] = entry
    }

    private static func wait(_ table: [String: Window], _ key: String, limit: Int, window: Duration,
                             now: ContinuousClock.Instant) -> Int? {
        guard let entry = table[key], now - entry.start < window, entry.count >= limit else { return nil }
        let left = window - (now - entry.start)
        return max(1, Int(left.components.seconds) + 1)
    }
}

/// The instances of a service count one account's and one address's failures together: each
/// says which failures and successes it saw, and the others count them as their own.
extension AttemptLimiter: SharedPart {
    struct News: Codable {
        var failed: [[String]]
        var cleared: [String]
    }

    package func outgoing(now: ContinuousClock.Instant) -> Data? {
        let (failed, cleared) = news.withLock { news in
            defer { news = ([], []) }
            return news
        }
        guard !failed.isEmpty || !cleared.isEmpty else { return nil }
        return try? JSONEncoder().encode(News(failed: failed, cleared: cleared))
    }

    package func incoming(_ data: Data, from instance: String, now: ContinuousClock.Instant) {
        guard let news = try? JSONDecoder().decode(News.self, from: data) else { return }
        for pair in news.failed.prefix(10_000) where pair.count == 2 {
            countFailure(account: pair[0], address: pair[1], now: now)
        }
        for account in news.cleared.prefix(10_000) { _ = accounts.withLock { $0.removeValue(forKey: account) } }
    }
}
