import Foundation
public import Hummingbird
import MusterNATS
import Synchronization

/// Token buckets per client: `perMinute` requests a minute with bursts up to the same number.
/// Over the limit answers 429 with `Retry-After` in whole seconds (the browser extension honours it).
public final class RateLimiter: Sendable {
    public let perMinute: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    public init(perMinute: Int) { self.perMinute = perMinute }

    /// Takes a token only if one is there; false leaves the bucket as it was (the caller then
    /// goes the ordinary way, which answers 429).
    public func takeIfAvailable(_ client: String, now: ContinuousClock.Instant = .now) -> Bool {
        guard perMinute > 0 else { return true }
        return buckets.withLock { buckets in
            guard var bucket = buckets[client] else { return false }
            let elapsed = now - bucket.updated
            let tokens = min(Double(perMinute), bucket.tokens + Double(perMinute) / 60
                * elapsed.inSeconds)
            guard tokens >= 1 else { return false }
            bucket.tokens = tokens - 1
            bucket.updated = now
            buckets[client] = bucket
            return true
        }
    }

    /// Takes one token for `client`; returns the seconds to wait when there is none.
    public func take(_ client: String, now: ContinuousClock.Instant = .now) -> Int? {
        guard perMinute > 0 else { return nil }
        let capacity = Double(perMinute)
        let perSecond = capacity / 60
        return buckets.withLock { buckets in
            if buckets.count > 100_000 { buckets.removeAll() } // bounded memory under a key-spraying attack
            var bucket = buckets[client] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = now - bucket.updated
            bucket.tokens = min(capacity, bucket.tokens + perSecond * elapsed.inSeconds)
            bucket.updated = now
            defer { buckets[client] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }
}

/// Refuses a client over its limit with 429 and `Retry-After`. Runs after authentication, so the
/// bucket is the API key's.
public struct RateLimitMiddleware: RouterMiddleware {
    public typealias Context = MusterRequestContext
    let limiter: RateLimiter

    public init(_ limiter: RateLimiter) { self.limiter = limiter }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let wait = limiter.take(context.client?.id ?? "anonymous") {
            throw APIError(.tooManyRequests, "rate limit of \(limiter.perMinute) requests a minute reached; retry in \(wait) s",
                           headers: [.retryAfter: "\(wait)"])
        }
        return try await next(request, context)
    }
}
