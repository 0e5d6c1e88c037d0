public import Foundation
public import JWTKit
public import MusterRuntime

/// The claims of an access token (an ES256 JWT with the signing key's `kid` in its header).
public struct AccessClaims: JWTPayload, Equatable {
    /// The person.
    public var sub: SubjectClaim
    /// The session (the family of tokens one sign-in leads to).
    public var sid: String
    public var org: String
    public var role: String
    public var app: String
    /// The app again, as the standard audience claim: a token is for one app's routes only.
    /// Optional so tokens signed before it was added (they live at most a day) still decode;
    /// validation then compares `app` alone.
    public var aud: AudienceClaim?
    /// The stream sequence of the session event behind this token: a reader whose fold has not
    /// reached it yet waits for it rather than calling the token unknown.
    public var seq: UInt64
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim

    public init(personId: String, sessionId: String, orgId: String, role: String, app: String, sequence: UInt64,
                issuedAt: Date, expiresAt: Date) {
        sub = SubjectClaim(value: personId)
        sid = sessionId
        org = orgId
        self.role = role
        self.app = app
        aud = AudienceClaim(value: [app])
        seq = sequence
        iat = IssuedAtClaim(value: issuedAt)
        exp = ExpirationClaim(value: expiresAt)
    }

    public var personId: String { sub.value }
    public var expiresAt: Date { exp.value }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }

    /// The person as `Access.permits` compares them with an owner.
    public var principal: Principal { .person(app: app, org: org, personId: personId, role: role) }

    /// Whether the token is one of `app`'s: its `app` claim and, when present, its audience.
    public func isFor(app expected: String) -> Bool {
        app == expected && (aud.map { $0.value == [expected] } ?? true)
    }
}
