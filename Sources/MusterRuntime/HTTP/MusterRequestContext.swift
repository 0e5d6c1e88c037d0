public import Foundation
public import Hummingbird

/// An app's API key, once proved: its id, its app, and the scopes it may use.
public struct AuthenticatedClient: Sendable, Equatable {
    /// API key id (`key_…`), or `person:<id>` for a page visitor signed in as a person.
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
    /// What the request's credentials proved (`AuthenticationMiddleware`, before any route).
    public var caller = Caller()
    /// Whom the route acts for, as its `AccessRule` admitted the caller (`.nobody` on public routes).
    public var principal = Principal.nobody
    /// The peer's IP address (the gateway's, behind one), for limits per address.
    public var remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Oversized bodies are refused with 413 before a handler sees them.
    public var maxUploadSize: Int { 1024 * 1024 }

    /// Shared, configured once: stable key order, unescaped slashes in URLs.
    public var responseEncoder: JSONEncoder { JSONResponse.encoder }

    /// The key the route admitted (its rule is `key`, `key-or-person` without a token, or
    /// `key-and-person`).
    public func key() throws -> AuthenticatedClient {
        guard let client = caller.key.value else { throw APIError(.unauthorized, "missing API key: send it in the X-API-Key header") }
        return client
    }

    /// The person the route admitted (its rule is `person`, `key-and-person`, or `key-or-person`
    /// with a token).
    public func person() throws -> SignedInPerson {
        guard case .person = principal, let person = caller.person.value else { throw APIError(.unauthorized, "missing bearer token") }
        return person
    }
}
