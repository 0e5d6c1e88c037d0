public import Foundation
public import Hummingbird

/// The app client or person a request acts for, once authenticated.
public struct AuthenticatedClient: Sendable, Equatable {
    /// API key id (`key_…`) or user id.
    public var id: String
    /// The app the key was issued for (`opl`, `pop`, …).
    public var app: String
    public var scopes: Set<String>

    public init(id: String, app: String, scopes: Set<String>) {
        self.id = id
        self.app = app
        self.scopes = scopes
    }
}

/// The request context of every Muster route.
public struct MusterRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var client: AuthenticatedClient?
    /// The peer's IP address (the gateway's, behind one), for limits per address.
    public var remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = nil
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Oversized bodies are refused with 413 before a handler sees them.
    public var maxUploadSize: Int { 1024 * 1024 }

    /// Shared, configured once: stable key order, unescaped slashes in URLs.
    public var responseEncoder: JSONEncoder { JSONResponse.encoder }

    /// The authenticated client; routes behind the key middleware can rely on it.
    public func requireClient() throws -> AuthenticatedClient {
        guard let client else { throw APIError(.unauthorized, "missing API key") }
        return client
    }
}
