import Foundation
package import Hummingbird
import MusterNATS
import Synchronization

/// Token buckets per client: `perMinute` requests a minute with bursts up to the same number.
/// Over the limit answers 429 with `Retry-After` in whole seconds (the browser extension honours it).
/// Registered with `Sharing`, the instances of a service share each client's bucket.
package final class RateLimiter: Sendable {
    package let perMinute: Int
    private let state = Mutex<State>(State())

    struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    struct State {
        var buckets: [String: Bucket] = [:]
        /// Tokens taken here since `Sharing` last asked, per client.
        var taken: [String: Int] = [:]
    }

    package init(perMinute: Int) { self.perMinute = perMinute }

    /// Takes a token only if one is there; false leaves the bucket as it was (the caller then
    /// goes the ordinary way, which answers 429).
    package func takeIfAvailable(_ client: String, now: ContinuousClock.Instant = .now) -> Bool {
        guard perMinute > 0 else { return true }
        return state.withLock { state in
            guard var bucket = state.buckets[client] else { return false }
            let elapsed = now - bucket.updated
            let tokens = min(Double(perMinute), bucket.tokens + Double(perMinute) / 60
                * elapsed.inSeconds)
            guard tokens >= 1 else { return false }
            bucket.tokens = tokens - 1
            bucket.updated = now
            state.buckets[client] = bucket
            Self.count(&state, client)
            return true
        }
    }

    /// Takes one token for `client`; returns the seconds to wait when there is none.
    package func take(_ client: String, now: ContinuousClock.Instant = .now) -> Int? {
        guard perMinute > 0 else { return nil }
        let capacity = Double(perMinute)
        let perSecond = capacity / 60
        return state.withLock { state in
            if state.buckets.count > 100_000 { state.buckets.removeAll() } // bounded memory under a key-spraying attack
            var bucket = state.buckets[client] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = now - bucket.updated
            bucket.tokens = min(capacity, bucket.tokens + perSecond * elapsed.inSeconds)
            bucket.updated = now
            defer { state.buckets[client] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                Self.count(&state, client)
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }

    private static func count(_ state: inout State, _ client: String) {
        if state.taken.count < 100_000 { state.taken[client, default: 0] += 1 }
    }

    /// What was taken here since the last call.
    func drainTaken() -> [String: Int] {
        state.withLock { state in
            defer { state.taken.removeAll(keepingCapacity: true) }
            return state.taken
        }
    }

    /// Another instance took `count` of this client's tokens: take them here too, down to at most
    /// one bucket's worth of debt (which the client then waits out).
    func takenElsewhere(_ client: String, count: Int, now: ContinuousClock.Instant) {
        let capacity = Double(perMinute)
        state.withLock { state in
            if state.buckets.count > 100_000 { state.buckets.removeAll() }
            var bucket = state.buckets[client] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = max(-capacity, min(capacity, bucket.tokens + capacity / 60 * (now - bucket.updated).inSeconds) - Double(count))
            bucket.updated = now
            state.buckets[client] = bucket
        }
    }
}

/// Refuses a client over its limit with 429 and `Retry-After`. Runs after authentication, so the
/// bucket is the API key's; a request without a proved key passes to its route, whose rule refuses it.
package struct RateLimitMiddleware: RouterMiddleware {
    package typealias Context = MusterRequestContext
    let limiter: RateLimiter

    package init(_ limiter: RateLimiter) { self.limiter = limiter }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let client = context.caller.key.value, let wait = limiter.take(client.id) {
            throw APIError(.tooManyRequests, "rate limit of \(limiter.perMinute) requests a minute reached; retry in \(wait) s",
                           headers: [.retryAfter: "\(wait)"])
        }
        return try await next(request, context)
    }
}
