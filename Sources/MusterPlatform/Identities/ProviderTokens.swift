package import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import Metrics
import MusterEvents
import NIOHTTP1
import NIOCore
import NIOFoundationEssentialsCompat

/// What a verified Apple or Google ID token says about the person.
package struct ProviderAccount: Sendable, Equatable {
    package var provider: IdentityProvider
    package var subject: String
    package var email: String?
    package var emailVerified: Bool

    package init(provider: IdentityProvider, subject: String, email: String?, emailVerified: Bool) {
        (self.provider, self.subject, self.email, self.emailVerified) = (provider, subject, email, emailVerified)
    }
}

/// The claims of an Apple or Google ID token that sign-in reads. Apple sends `email_verified` as
/// the string "true", Google as a boolean: both are read.
struct ProviderIDToken: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var email: String?
    var emailVerified: Bool?
    var nonce: String?

    enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, email, emailVerified = "email_verified", nonce }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = try c.decode(IssuerClaim.self, forKey: .iss)
        sub = try c.decode(SubjectClaim.self, forKey: .sub)
        aud = try c.decode(AudienceClaim.self, forKey: .aud)
        exp = try c.decode(ExpirationClaim.self, forKey: .exp)
        iat = try c.decode(IssuedAtClaim.self, forKey: .iat)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
        if let flag = try? c.decodeIfPresent(Bool.self, forKey: .emailVerified) { emailVerified = flag }
        else { emailVerified = (try? c.decodeIfPresent(String.self, forKey: .emailVerified)).map { $0 == "true" } ?? nil }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iss, forKey: .iss)
        try c.encode(sub, forKey: .sub)
        try c.encode(aud, forKey: .aud)
        try c.encode(exp, forKey: .exp)
        try c.encode(iat, forKey: .iat)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encodeIfPresent(emailVerified, forKey: .emailVerified)
        try c.encodeIfPresent(nonce, forKey: .nonce)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// Verifies Apple's and Google's ID tokens: the signature against the provider's published keys
/// (fetched from the configured URL, kept an hour, fetched again for an unknown key id at most
/// once a minute), the issuer, the audience (the app's ids), expiry, and the nonce when one is
/// expected. The keys' URL is configuration, so tests and the demo use `muster-standins identity`.
package actor ProviderTokens {
    package struct Provider: Sendable {
        package var issuers: Set<String>
        package var audiences: Set<String>
        package var keysURL: String
    }

    let providers: [IdentityProvider: Provider]
    let http: HTTPClient
    private var keys: [IdentityProvider: (collection: JWTKeyCollection, fetched: ContinuousClock.Instant)] = [:]

    package init(apple: Provider, google: Provider, http: HTTPClient) {
        providers = [.apple: apple, .google: google]
        self.http = http
    }

    package static func providers(keysApple: String, audiencesApple: [String], keysGoogle: String,
                                 audiencesGoogle: [String]) -> (apple: Provider, google: Provider) {
        (Provider(issuers: ["https://appleid.apple.com"], audiences: Set(audiencesApple), keysURL: keysApple),
         Provider(issuers: ["accounts.google.com", "https://accounts.google.com"], audiences: Set(audiencesGoogle), keysURL: keysGoogle))
    }

    /// The account a valid token names; `IdentityError.invalidToken` for anything else.
    package func verify(_ token: String, provider: IdentityProvider, nonce: String? = nil) async throws -> ProviderAccount {
        do {
            return try await checked(token, provider: provider, nonce: nonce)
        } catch let error as IdentityError where error.code == .invalidToken {
            Counter(label: "muster_signin_failures_total", dimensions: [("method", provider.rawValue)]).increment()
            throw error
        }
    }

    private func checked(_ token: String, provider: IdentityProvider, nonce: String?) async throws -> ProviderAccount {
        guard let settings = providers[provider] else { throw IdentityError(.notConfigured, "\(provider.rawValue) sign-in is not configured") }
        guard token.utf8.count <= 8192 else { throw IdentityError(.invalidToken, "the \(provider.rawValue) token is too long") }
        let claims: ProviderIDToken
        do {
            claims = try await verified(token, provider: provider, settings: settings)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw IdentityError(.invalidToken, "the \(provider.rawValue) token could not be verified")
        }
        guard settings.issuers.contains(claims.iss.value) else { throw IdentityError(.invalidToken, "the token is not from \(provider.rawValue)") }
        guard !settings.audiences.isDisjoint(with: claims.aud.value) else { throw IdentityError(.invalidToken, "the token is for another app") }
        guard claims.iat.value <= Date().addingTimeInterval(300) else { throw IdentityError(.invalidToken, "the token is issued in the future") }
        if let nonce, claims.nonce != nonce { throw IdentityError(.invalidToken, "the token's nonce does not match") }
        let subject = claims.sub.value
        guard (1...255).contains(subject.utf8.count) else { throw IdentityError(.invalidToken, "the token names no account") }
        return ProviderAccount(provider: provider, subject: subject, email: claims.email?.lowercased(), emailVerified: claims.emailVerified ?? false)
    }

    private func verified(_ token: String, provider: IdentityProvider, settings: Provider) async throws -> ProviderIDToken {
        let collection = try await keyCollection(provider, settings: settings, refresh: false)
        do {
            return try await collection.verify(token, as: ProviderIDToken.self)
        } catch let error as JWTError where error.errorType == .unknownKID {
            // The provider rotated its keys: fetch them again, at most once a minute.
            guard let fetched = keys[provider]?.fetched, ContinuousClock.now - fetched > .seconds(60) else { throw error }
            return try await keyCollection(provider, settings: settings, refresh: true).verify(token, as: ProviderIDToken.self)
        }
    }

    private func keyCollection(_ provider: IdentityProvider, settings: Provider, refresh: Bool) async throws -> JWTKeyCollection {
        if !refresh, let cached = keys[provider], ContinuousClock.now - cached.fetched < .seconds(3600) { return cached.collection }
        var request = HTTPClientRequest(url: settings.keysURL)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(10))
        } catch {
            throw IdentityError(.providerUnavailable, "\(provider.rawValue)'s keys could not be fetched; try again")
        }
        guard response.status == .ok else { throw IdentityError(.providerUnavailable, "\(provider.rawValue)'s keys answered \(response.status.code)") }
        let body = try await response.body.collect(upTo: 256 * 1024)
        let collection = try await JWTKeyCollection().add(jwksJSON: String(buffer: body))
        keys[provider] = (collection, ContinuousClock.now)
        return collection
    }
}
