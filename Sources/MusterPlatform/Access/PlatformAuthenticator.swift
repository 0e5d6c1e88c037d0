package import HTTPTypes
import JWTKit
import MusterEvents
import MusterLog
package import MusterRuntime

/// The authentication step's prover (`AuthenticationMiddleware`): an `X-API-Key` against the keys
/// fold, an `Authorization: Bearer` token against the signing keys and the sessions fold, a page's
/// session cookie (either of those, kept by `PageSession`), and an installation's `X-Device-Id` and
/// `X-Device-Secret` passed on for the device registry to prove. The one place a request's
/// credentials are read.
package struct PlatformAuthenticator: RequestAuthenticator {
    let keys: APIKeyDirectory
    /// The process's people, if one of its roles serves people (a collector alone runs no people
    /// fold, and proves no token). Looked up per token: every role is composed before any request.
    let people: @Sendable () -> People?

    package init(keys: APIKeyDirectory, people: @escaping @Sendable () -> People?) {
        self.keys = keys
        self.people = people
    }

    /// The authenticator of a process: its keys, and its people if a role made them.
    package init(environment: MusterEnvironment) {
        self.init(keys: APIKeyDirectory.shared(in: environment), people: { environment.existing(People.self) })
    }

    package func caller(of headers: HTTPFields) async -> Caller {
        var caller = Caller()
        if let presented = headers[.apiKey] {
            do { caller.key = .proved(try await keys.authenticate(presented)) } catch { caller.key = .refused(error) }
        }
        if let authorization = headers[.authorization] {
            caller.person = await person(bearer: authorization)
        }
        if let credential = PageSession.credential(in: headers) {
            caller.page = await visitor(credential)
        }
        let deviceId = headers[.deviceID], secret = headers[.deviceSecret]
        if deviceId != nil || secret != nil { caller.installation = InstallationClaim(deviceId: deviceId, secret: secret) }
        return caller
    }

    func person(bearer authorization: String) async -> Caller.Proof<SignedInPerson> {
        guard let token = Self.bearerToken(authorization) else {
            return .refused(AccountError(.invalidToken, "missing bearer token"))
        }
        return await person(token: token)
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case).
    package static func bearerToken(_ header: String?) -> String? {
        guard let header, header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = String(header.dropFirst(7)).trimmingWhitespace
        return token.isEmpty ? nil : token
    }

    /// A page session's credential: an access token (a JWT has two dots), else a key.
    func visitor(_ credential: String) async -> Caller.Proof<PageVisitor> {
        if credential.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 {
            switch await person(token: credential) {
            case .proved(let person): return .proved(.person(person))
            case .refused(let error): return .refused(error)
            case .absent: return .absent
            }
        }
        do { return .proved(.key(try await keys.authenticate(credential))) } catch { return .refused(error) }
    }

    func person(token: String) async -> Caller.Proof<SignedInPerson> {
        guard let people = people() else {
            return .refused(AccountError(.invalidToken, "this service signs no person in"))
        }
        do {
            let (claims, checkpoint) = try await people.validateAtCheckpoint(token, app: nil)
            // The audience, when the token has one, must be its app (`AccessClaims.isFor`).
            guard claims.isFor(app: claims.app) else { return .refused(AccountError(.invalidToken, "invalid token")) }
            return .proved(SignedInPerson(claims, checkedAt: checkpoint, accessToken: token))
        } catch {
            return .refused(error)
        }
    }
}

extension SignedInPerson {
    package init(_ claims: AccessClaims, checkedAt: UInt64 = 0, accessToken: String = "") {
        self.init(personId: claims.personId, sessionId: claims.sid, org: claims.org, role: claims.role, app: claims.app,
                  sequence: claims.seq, issuedAt: claims.iat.value, expiresAt: claims.expiresAt, checkedAt: checkedAt,
                  accessToken: accessToken)
    }
}

extension People {
    /// Whether the person's session is still live as the sessions fold stands (signed out,
    /// revoked or forgotten: not). Expiry is the caller's to compare.
    package func sessionIsLive(_ person: SignedInPerson) async -> Bool {
        await runner.read { $0.sessionIsLive(person.sessionId) }
    }
}

extension AccessClaims {
    /// The claims of a token the authentication step proved, for domain code that takes them.
    package init(_ person: SignedInPerson) {
        self.init(personId: person.personId, sessionId: person.sessionId, orgId: person.org, role: person.role, app: person.app,
                  sequence: person.sequence, issuedAt: person.issuedAt, expiresAt: person.expiresAt)
    }
}

extension MusterRequestContext {
    /// The admitted person's token claims (the route's rule admits a person).
    package func claims() throws -> AccessClaims {
        AccessClaims(try person())
    }
}
