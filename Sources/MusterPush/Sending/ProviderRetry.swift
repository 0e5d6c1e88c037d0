/// The retry rules APNs and FCM share, around one provider's single send: a delivery or a refusal
/// ends it; an expired credential is renewed once and the copy sent again; what may be retried
/// (429, 5xx, no credential to send with) waits with exponential backoff and jitter, up to
/// `attempts`. What an answer means is each provider's own table (`APNsResponse`, `FCMResponse`).
struct ProviderRetry: Sendable {
    var attempts: Int
    var firstDelay: Duration
    var maxDelay: Duration

    /// - Parameters:
    ///   - expired: the failure recorded when a renewed credential is refused again.
    ///   - send: one send; `renewing` asks for a new credential first. A thrown error (the credential
    ///     could not be had) is retried like an unreachable provider.
    func run(expired: (reason: String, status: Int), _ send: (_ renewing: Bool) async throws -> APNsOutcome) async -> APNsClient.Result {
        var attempt = 0, renewing = false, renewed = false, throttled = false
        var delay = firstDelay
        while true {
            attempt += 1
            let outcome = (try? await send(renewing)) ?? .retry(reason: "ProviderTokenUnavailable", status: nil)
            renewing = false
            switch outcome {
            case .delivered(let id):
                return .init(delivery: .delivered(apnsID: id), attempts: attempt, throttled: throttled)
            case .refused(let reason, let status, let invalidates, let since):
                return .init(delivery: .failed(reason: reason, status: status, invalidatesToken: invalidates, since: since),
                             attempts: attempt, throttled: throttled)
            case .renewToken:
                guard !renewed else {
                    return .init(delivery: .failed(reason: expired.reason, status: expired.status, invalidatesToken: false, since: nil),
                                 attempts: attempt, throttled: throttled)
                }
                renewed = true
                renewing = true
            case .retry(let reason, let status):
                if status == 429 { throttled = true }
                guard attempt < attempts, !Task.isCancelled else {
                    return .init(delivery: .failed(reason: reason, status: status, invalidatesToken: false, since: nil),
                                 attempts: attempt, throttled: throttled)
                }
                try? await Task.sleep(for: delay * Double.random(in: 0.5...1.0))
                delay = min(delay * 2, maxDelay)
            }
        }
    }
}
