package import AsyncHTTPClient
import Foundation
package import NIOCore
import NIOHTTP1
import NIOSSL

/// Sends pushes to APNs over HTTP/2: one client, so one connection per environment (host) carrying
/// many concurrent streams; async-http-client queues requests beyond the stream limit APNs sets
/// and follows it when APNs lowers it. Retries follow Apple's reason (`APNsResponse`).
package struct APNsClient: Sendable {
    package enum Delivery: Sendable, Equatable {
        case delivered(apnsID: String?)
        case failed(reason: String, status: Int?, invalidatesToken: Bool, since: Int64?)
    }

    package struct Result: Sendable, Equatable {
        package var delivery: Delivery
        package var attempts: Int
        /// APNs asked us to slow down (429) on the way.
        package var throttled: Bool
    }

    let http: HTTPClient
    let lease: APNsTokenLease
    let sandboxURL: String
    let productionURL: String
    package var attempts = 4
    package var firstDelay: Duration = .milliseconds(200)
    package var maxDelay: Duration = .seconds(5)
    package var timeout: TimeAmount = .seconds(15)

    package init(http: HTTPClient, lease: APNsTokenLease, sandboxURL: String, productionURL: String) {
        self.http = http
        self.lease = lease
        self.sandboxURL = sandboxURL
        self.productionURL = productionURL
    }

    /// An HTTP client for APNs: HTTP/2 by ALPN, trusting `caFile` besides the system's roots.
    package static func makeHTTPClient(caFile: String?) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile { tls.additionalTrustRoots = [.file(caFile)] }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        configuration.connectionPool = .init(idleTimeout: .seconds(600))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Delivers one copy, retrying what Apple says may be retried, renewing the provider token once
    /// when Apple says it expired (`ProviderRetry`).
    package func deliver(_ notification: APNsNotification, token: String, topic: String, environment: String,
                        apnsID: String) async -> Result {
        var jwt: String?
        let retry = ProviderRetry(attempts: attempts, firstDelay: firstDelay, maxDelay: maxDelay)
        return await retry.run(expired: ("ExpiredProviderToken", 403)) { renewing in
            let current = renewing ? try await lease.renew(rejected: jwt ?? "") : try await lease.token()
            jwt = current
            return await send(notification, token: token, topic: topic, environment: environment, apnsID: apnsID, jwt: current)
        }
    }

    func send(_ notification: APNsNotification, token: String, topic: String, environment: String, apnsID: String,
              jwt: String) async -> APNsOutcome {
        var request = HTTPClientRequest(url: (environment == "sandbox" ? sandboxURL : productionURL) + "/3/device/" + token)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-id", value: apnsID)
        if let expiration = notification.expiration { request.headers.add(name: "apns-expiration", value: String(expiration)) }
        if let collapse = notification.collapseID { request.headers.add(name: "apns-collapse-id", value: collapse) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: notification.payload))
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = (try? await response.body.collect(upTo: APNsResponse.maxBody)).map { Array(buffer: $0) } ?? []
            return APNsResponse.outcome(status: Int(response.status.code), apnsID: response.headers.first(name: "apns-id"), body: body)
        } catch {
            return .retry(reason: "Unreachable", status: nil)
        }
    }
}
