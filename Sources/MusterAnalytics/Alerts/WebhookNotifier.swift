package import AsyncHTTPClient
import Foundation
package import Logging
package import MusterEvents
import MusterLog
import MusterRuntime
package import NIOCore
import NIOHTTP1

/// Delivers alert events to the configured webhooks as JSON (`AlertWebhookBody`), at least once.
///
/// Each webhook gets a few quick attempts with exponential backoff (0.5 s, 1 s, 2 s…); if one
/// still fails, the event is handed back to its `EventProcessor`, which retries it later with
/// its own backoff and files it in the DLQ after its last attempt. A webhook may thus see an alert
/// twice; `alert_id` + `status` identify it. Alerts recorded more than `maxAge` ago are not news:
/// a webhook added to a long-running log does not hear its whole history.
package struct WebhookNotifier: Sendable {
    package let targets: [AlertWebhookTarget]
    package var maxAge: Duration = .seconds(24 * 3600)
    package var attempts = 4
    package var firstDelay: Duration = .milliseconds(500)
    package var timeout: TimeAmount = .seconds(5)
    let client: HTTPClient
    let logger: Logger

    package init(targets: [AlertWebhookTarget], client: HTTPClient = .shared, logger: Logger) {
        self.targets = targets
        self.client = client
        self.logger = logger
    }

    package struct DeliveryError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The processor's handler.
    package func handle(_ event: RecordedEvent) async throws {
        guard let body = AlertWebhookBody(event) else { return }
        if let recorded = Timestamp.millis(event.time),
           Double(Int64(Date().timeIntervalSince1970 * 1000) - recorded) > Double(maxAge.components.seconds) * 1000 {
            logger.info("alert too old to deliver", metadata: ["alert": "\(body.alertId)", "recorded": "\(event.time)"])
            return
        }
        var failures: [String] = []
        for target in targets {
            do {
                try await deliver(try body.encoded(for: target), to: target.url, alertID: body.alertId)
            } catch {
                failures.append("\(target): \(error)")
            }
        }
        guard failures.isEmpty else { throw DeliveryError(description: failures.joined(separator: "; ")) }
    }

    func deliver(_ data: Data, to url: String, alertID: String) async throws {
        var delay = firstDelay
        for attempt in 1...attempts {
            do {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "User-Agent", value: "muster-alerts/0.1")
                request.headers.add(name: "Muster-Alert-Id", value: alertID)
                request.body = .bytes(ByteBuffer(bytes: data))
                let response = try await client.execute(request, timeout: timeout)
                _ = try? await response.body.collect(upTo: 64 * 1024)
                guard (200..<300).contains(response.status.code) else {
                    throw DeliveryError(description: "answered \(response.status.code)")
                }
                return
            } catch {
                if attempt == attempts { throw error }
                logger.warning("webhook failed; retrying", metadata: ["url": "\(url)", "attempt": "\(attempt)", "error": "\(error)"])
                try await Task.sleep(for: delay)
                delay *= 2
            }
        }
    }
}

/// What a webhook receives.
package struct AlertWebhookBody: Codable, Sendable, Equatable {
    package var alertId: String
    package var status: String
    package var rule: String
    package var app: String
    package var target: String
    package var message: String
    package var observed: Double
    package var threshold: Double?
    package var count: Int
    package var windowStart: String?
    package var windowEnd: String?
    package var resolvedAt: String?

    enum CodingKeys: String, CodingKey {
        case alertId = "alert_id", status, rule, app, target, message, observed, threshold, count, windowStart = "window_start",
             windowEnd = "window_end", resolvedAt = "resolved_at"
    }

    package init?(_ event: RecordedEvent) {
        switch event.payload {
        case let e as AlertRaised:
            self.init(alertId: e.alertId, status: "raised", rule: e.rule.rawValue, app: e.app, target: e.target, message: e.message,
                      observed: e.observed, threshold: e.threshold, count: e.count, windowStart: e.windowStart, windowEnd: e.windowEnd,
                      resolvedAt: nil)
        case let e as AlertResolved:
            self.init(alertId: e.alertId, status: "resolved", rule: e.rule.rawValue, app: e.app, target: e.target, message: e.message,
                      observed: e.observed, threshold: nil, count: e.count, windowStart: nil, windowEnd: nil, resolvedAt: e.resolvedAt)
        default:
            return nil
        }
    }

    package init(alertId: String, status: String, rule: String, app: String, target: String, message: String, observed: Double,
                threshold: Double?, count: Int, windowStart: String?, windowEnd: String?, resolvedAt: String?) {
        self.alertId = alertId
        self.status = status
        self.rule = rule
        self.app = app
        self.target = target
        self.message = message
        self.observed = observed
        self.threshold = threshold
        self.count = count
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.resolvedAt = resolvedAt
    }
}
