import Crypto
import Foundation
import HTTPTypes
package import Hummingbird
import JWTKit
import NIOCore
import NIOFoundationEssentialsCompat

/// A local server that answers like Apple's and Google's sign-in key endpoints, for tests and the
/// demo: each provider has its own signing key, published as a JWKS (`GET /apple/keys`,
/// `GET /google/keys`, the shape of `appleid.apple.com/auth/keys` and Google's `oauth2/v3/certs`),
/// and mints ID tokens with the provider's issuer (`POST /standin/token`, not Apple's or Google's:
/// on a phone their SDKs hand the app the token). The verifying code is the production path.
package enum IdentityStandIn {
    /// What a test or the demo asks to be signed.
    package struct TokenRequest: Codable, Sendable {
        package var provider: String
        package var sub: String
        package var email: String?
        package var emailVerified: Bool?
        package var aud: String?
        /// Seconds until it expires (negative: already expired).
        package var expiresIn: Int?
        package var nonce: String?

        package init(provider: String, sub: String, email: String? = nil, emailVerified: Bool? = nil, aud: String? = nil,
                    expiresIn: Int? = nil, nonce: String? = nil) {
            (self.provider, self.sub, self.email, self.emailVerified, self.aud, self.expiresIn, self.nonce) =
                (provider, sub, email, emailVerified, aud, expiresIn, nonce)
        }

        enum CodingKeys: String, CodingKey {
            case provider, sub, email, emailVerified = "email_verified", aud, expiresIn = "expires_in", nonce
        }
    }

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var email: String?
        var emailVerified: String?
        var nonce: String?
        enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, email, emailVerified = "email_verified", nonce }
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The providers' keys (one ES256 key each), made at start.
    package final class Keys: Sendable {
        let apple = ES256PrivateKey()
        let google = ES256PrivateKey()
        package init() {}

        func key(_ provider: String) -> ES256PrivateKey? { provider == "apple" ? apple : provider == "google" ? google : nil }

        func jwks(_ provider: String) throws -> String? {
            guard let key = key(provider), let parameters = key.parameters else { return nil }
            let jwk: [String: String] = ["kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": provider + "-standin",
                                         "x": Self.base64URL(parameters.x), "y": Self.base64URL(parameters.y)]
            return String(decoding: try JSONEncoder().encode(["keys": [jwk]]), as: UTF8.self)
        }

        /// The key's coordinates arrive base64 (standard); a JWK wants base64url without padding.
        static func base64URL(_ base64: String) -> String {
            base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }

        /// A signed ID token, as Apple (`email_verified` a string) or Google (a boolean, written as a string too: both verify) issue.
        package func token(_ request: TokenRequest) async throws -> String? {
            guard let key = key(request.provider) else { return nil }
            let now = Date()
            let issuer = request.provider == "apple" ? "https://appleid.apple.com" : "https://accounts.google.com"
            let audience = request.aud ?? (request.provider == "apple" ? "com.offleash.ios"
                : "120633628567-nhecmop27e3cvnpofm6592h6ithf9rdo.apps.googleusercontent.com")
            let claims = Claims(iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: request.sub), aud: AudienceClaim(value: [audience]),
                                exp: ExpirationClaim(value: now.addingTimeInterval(TimeInterval(request.expiresIn ?? 600))),
                                iat: IssuedAtClaim(value: now), email: request.email, emailVerified: request.emailVerified.map { $0 ? "true" : "false" },
                                nonce: request.nonce)
            let collection = await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: request.provider + "-standin"))
            return try await collection.sign(claims, kid: JWKIdentifier(string: request.provider + "-standin"))
        }
    }

    package static func router(keys: Keys) -> Router<BasicRequestContext> {
        let router = Router()
        for provider in ["apple", "google"] {
            router.get("/\(provider)/keys") { _, _ in
                guard let jwks = try keys.jwks(provider) else { return Response(status: .notFound) }
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: jwks)))
            }
        }
        router.post("/standin/token") { request, _ in
            let asked = try JSONDecoder().decode(TokenRequest.self, from: Data(buffer: try await request.body.collect(upTo: 16 * 1024)))
            guard let token = try await keys.token(asked) else { return Response(status: .badRequest) }
            let body = try JSONEncoder().encode(["id_token": token])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return router
    }
}
