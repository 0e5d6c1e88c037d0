package import Foundation
package import Hummingbird

/// An app's API key, once proved: its id, its app, and the scopes it may use.
package struct AuthenticatedClient: Sendable, Equatable {
    /// API key id (`key_…`), or `person:<id>` for a page visitor signed in as a person.
    package var id: String
    /// The app the key was issued for (`opl`, `pop`, …).
    package var app: String
    package var scopes: Set<String>

    package init(id: String, app: String, scopes: Set<String>) {
        self.id = id
        self.app = app
        self.scopes = scopes
    }
}

/// The request context of every Muster route.
package struct MusterRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// What the request's credentials proved (`AuthenticationMiddleware`, before any route).
    package var caller = Caller()
    /// Whom the route acts for, as its `AccessRule` admitted the caller (`.nobody` on public routes).
    package var principal = Principal.nobody
    /// The peer's IP address (the gateway's, behind one), for limits per address.
    package var remoteAddress: String?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Oversized bodies are refused with 413 before a handler sees them.
    package var maxUploadSize: Int { 1024 * 1024 }

    /// Shared, configured once: stable key order, unescaped slashes in URLs.
    package var responseEncoder: JSONEncoder { JSONResponse.encoder }

    /// The key the route admitted (its rule is `key`, `key-or-person` without a token, or
    /// `key-and-person`).
    package func key() throws -> AuthenticatedClient {
        guard let client = caller.key.value else { throw APIError(.unauthorized, "missing API key: send it in the X-API-Key header") }
        return client
    }

    /// The person the route admitted (its rule is `person`, `key-and-person`, or `key-or-person`
    /// with a token).
    package func person() throws -> SignedInPerson {
        guard case .person = principal, let person = caller.person.value else { throw APIError(.unauthorized, "missing bearer token") }
        return person
    }
}
