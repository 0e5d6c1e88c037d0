package import Hummingbird
package import MusterRuntime

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens (RFC 7517), for any
/// service that wants to check a token itself.
package enum JWKSRoutes {
    struct KeySet: Encodable { var keys: [JSONWebKey] }

    package static func add(to routes: Routes<Router<MusterRequestContext>>, people: People) {
        routes.get("/.well-known/jwks.json", access: .anyone) { _, _ in
            try JSONResponse.make(.ok, KeySet(keys: try await people.signing.publicKeys()),
                                  headers: [.cacheControl: "public, max-age=300"])
        }
    }
}
