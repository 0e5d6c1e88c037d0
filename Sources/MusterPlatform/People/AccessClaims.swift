package import Foundation
package import JWTKit
package import MusterRuntime

/// The claims of an access token (an ES256 JWT with the signing key's `kid` in its header).
package struct AccessClaims: JWTPayload, Equatable {
    /// The person.
    package var sub: SubjectClaim
    /// The session (the family of tokens one sign-in leads to).
    package var sid: String
    package var org: String
    package var role: String
    package var app: String
    /// The app again, as the standard audience claim: a token is for one app's routes only.
    /// Optional so tokens signed before it was added (they live at most a day) still decode;
    /// validation then compares `app` alone.
    package var aud: AudienceClaim?
    /// The stream sequence of the session event behind this token: a reader whose fold has not
    /// reached it yet waits for it rather than calling the token unknown.
    package var seq: UInt64
    package var iat: IssuedAtClaim
    package var exp: ExpirationClaim

    package init(personId: String, sessionId: String, orgId: String, role: String, app: String, sequence: UInt64,
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

    package var personId: String { sub.value }
    package var expiresAt: Date { exp.value }

    package func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }

    /// The person as `Access.permits` compares them with an owner.
    package var principal: Principal { .person(app: app, org: org, personId: personId, role: role) }

    /// Whether the token is one of `app`'s: its `app` claim and, when present, its audience.
    package func isFor(app expected: String) -> Bool {
        app == expected && (aud.map { $0.value == [expected] } ?? true)
    }
}
