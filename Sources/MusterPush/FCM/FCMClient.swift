package import AsyncHTTPClient
import Foundation
import MusterJSON
package import NIOCore
import NIOHTTP1

/// Sends pushes to Android devices through FCM HTTP v1: the service account's signed assertion is
/// exchanged for an access token (kept until five minutes before it expires, renewed once when FCM
/// answers 401), each copy is one `messages:send`, and retries follow FCM's error code.
package struct FCMClient: Sendable {
    let http: HTTPClient
    let account: FCMServiceAccount
    let baseURL: String
    let tokens: AccessTokens
    package var attempts = 4
    package var firstDelay: Duration = .milliseconds(200)
    package var maxDelay: Duration = .seconds(5)
    package var timeout: TimeAmount = .seconds(15)

    package init(http: HTTPClient, account: FCMServiceAccount, baseURL: String = "https://fcm.googleapis.com") {
        self.http = http
        self.account = account
        self.baseURL = baseURL
        tokens = AccessTokens(http: http, account: account)
    }

    /// The access token, fetched when missing or near its end.
    actor AccessTokens {
        let http: HTTPClient
        let account: FCMServiceAccount
        var current: (token: String, until: Date)?

        init(http: HTTPClient, account: FCMServiceAccount) {
            self.http = http
            self.account = account
        }

        struct Granted: Decodable {
            var access_token: String
            var expires_in: Int?
        }

        func token(renewing rejected: String? = nil) async throws -> String {
            if let current, current.until > Date(), current.token != rejected { return current.token }
            var request = HTTPClientRequest(url: account.tokenURI)
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
            let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + (try account.assertion(now: Date()))
            request.body = .bytes(ByteBuffer(string: form))
            let response = try await http.execute(request, timeout: .seconds(15))
            let body = try await response.body.collect(upTo: 64 * 1024)
            guard response.status.code == 200, let granted = try? JSONBytesDecoder().decode(Granted.self, from: Array(buffer: body)),
                  !granted.access_token.isEmpty, granted.access_token.utf8.count <= 4096 else {
                throw FCMError(description: "the token endpoint answered \(response.status.code)")
            }
            let lifetime = TimeInterval(max(60, granted.expires_in ?? 3600))
            current = (granted.access_token, Date().addingTimeInterval(lifetime - min(300, lifetime / 2)))
            return granted.access_token
        }
    }

    struct FCMError: Error, CustomStringConvertible { var description: String }

    /// The message FCM takes: the notification the system shows, and `screen`/`id` as data.
    struct Send: Encodable {
        struct Message: Encodable {
            struct Notification: Encodable { var title: String; var body: String; var image: String? }
            struct Android: Encodable { var priority: String; var collapse_key: String?; var ttl: String? }
            var token: String
            /// None for a data-only (silent) message: the app handles it in the background.
            var notification: Notification?
            var data: [String: String]
            var android: Android
        }
        var message: Message
    }

    package func deliver(_ message: PushMessage, token: String, priority: String, collapseID: String?, expiresAt: Int64?,
                         background: Bool = false) async -> APNsClient.Result {
        var data: [String: String] = [:]
        if let screen = message.screen { data["screen"] = screen }
        if let id = message.id { data["id"] = id }
        let ttl = expiresAt.map { "\(max(0, $0 - Int64(Date().timeIntervalSince1970)))s" }
        let notification = background ? nil : Send.Message.Notification(title: message.title, body: message.body, image: message.imageUrl)
        let send = Send(message: .init(token: token, notification: notification, data: data,
                                       android: .init(priority: background || priority == "normal" ? "NORMAL" : "HIGH", collapse_key: collapseID, ttl: ttl)))
        guard let payload = try? JSONBytesEncoder().encode(send) else {
            return .init(delivery: .failed(reason: "Unencodable", status: nil, invalidatesToken: false, since: nil), attempts: 0, throttled: false)
        }
        var access: String?
        let retry = ProviderRetry(attempts: attempts, firstDelay: firstDelay, maxDelay: maxDelay)
        return await retry.run(expired: ("UNAUTHENTICATED", 401)) { renewing in
            let current = try await tokens.token(renewing: renewing ? access : nil)
            access = current
            return await post(payload, access: current)
        }
    }

    func post(_ payload: [UInt8], access: String) async -> APNsOutcome {
        var request = HTTPClientRequest(url: "\(baseURL)/v1/projects/\(account.projectID)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(access)")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: payload))
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = (try? await response.body.collect(upTo: FCMResponse.maxBody)).map { Array(buffer: $0) } ?? []
            return FCMResponse.outcome(status: Int(response.status.code), body: body)
        } catch {
            return .retry(reason: "Unreachable", status: nil)
        }
    }
}
