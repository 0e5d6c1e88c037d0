import Foundation
package import HTTPTypes
package import HummingbirdTesting
package import MusterLog
import MusterPlatform
import NIOCore
import NIOFoundationEssentialsCompat

/// A composed process on a fresh log, as a test talks to it: the log, and a client for its routes.
package struct TestApp: Sendable {
    package let env: TestLog
    package let client: any TestClientProtocol

    package var log: EventLog { env.log }

    package func settled(_ name: String, at sequence: UInt64) async throws {
        try await env.settled(name, at: sequence)
    }

    package func key(app: String = "opl", _ scopes: [String]) async throws -> String {
        try await env.key(app: app, scopes)
    }

    @discardableResult
    package func request(_ uri: String, method: HTTPRequest.Method = .get, key: String? = nil, headers: HTTPFields = [:],
                        json: String? = nil) async throws -> TestResponse {
        var headers = headers
        if let key { headers[.apiKey] = key }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    package var text: String { String(buffer: body) }
    package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:] }
    package var errorMessage: String { json["error"] as? String ?? "<no {error} body: \(text.prefix(200))>" }
}

/// An installation as its registration answered it: its id and the secret it proves itself with.
package struct RegisteredDevice: Sendable {
    package var id: String
    package var secret: String

    /// `X-Device-Id` and `X-Device-Secret`, as the installation sends them.
    package var headers: HTTPFields {
        [.deviceID: id, .deviceSecret: secret]
    }

    /// The device a registration's answer names, if it made one.
    package init?(_ response: TestResponse) {
        guard let id = response.json["deviceId"] as? String, let secret = response.json["deviceSecret"] as? String else { return nil }
        self.id = id
        self.secret = secret
    }
}
