package import Foundation
import MusterEvents
package import MusterJSON

/// The account bodies every app's sign-in speaks, as OFFLEASH's app first spelled them: snake_case both ways.
/// `POST /api/{app}/auth/join`: an invited person makes their account with the invitation's code.
package struct JoinRequest: Decodable {
    package var code: String
    package var firstName: String
    package var lastName: String
    package var email: String
    package var password: String
    package var deviceName: String?
    package var platform: String?

    enum CodingKeys: String, CodingKey {
        case code, firstName = "first_name", lastName = "last_name", email, password, deviceName = "device_name", platform
    }
}

package struct RegisterRequest: Decodable {
    package var orgSlug: String?
    package var firstName: String
    package var lastName: String
    package var email: String
    package var phone: String?
    package var password: String

    enum CodingKeys: String, CodingKey {
        case orgSlug = "org_slug", firstName = "first_name", lastName = "last_name", email, phone, password
    }
}

package struct LoginRequest: Decodable {
    package var orgSlug: String?
    package var email: String
    package var password: String
    /// What the person sees in their list of sessions (optional).
    package var deviceName: String?
    package var platform: String?
    /// The app's install to link to the person at once, where the app links installs (PoP).
    package var installId: String?

    enum CodingKeys: String, CodingKey { case orgSlug = "org_slug", email, password, deviceName = "device_name", platform, installId = "install_id" }
}

package struct RefreshRequest: Decodable {
    package var refreshToken: String
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `user` in every answer: `{id, email, first_name, last_name, role, organization_id}` (+ `phone`).
package struct UserBody: Encodable {
    package var id: String
    package var email: String
    package var firstName: String
    package var lastName: String
    package var phone: String?
    package var role: String
    package var organizationId: String

    package init(_ account: People.AccountView) {
        id = account.personId
        email = account.email
        firstName = account.firstName
        lastName = account.lastName
        phone = account.phone
        role = account.role
        organizationId = account.orgId
    }

    enum CodingKeys: String, CodingKey {
        case id, email, firstName = "first_name", lastName = "last_name", phone, role, organizationId = "organization_id"
    }
}

/// `{token, user}` for register and login; `refresh_token` and `expires_at` ride along (the app
/// of today ignores them; a later one can refresh instead of signing in again).
package struct SignedInBody: Encodable {
    package var token: String
    package var refreshToken: String
    package var expiresAt: String
    package var user: UserBody

    package init(_ signedIn: People.SignedIn) {
        token = signedIn.accessToken
        refreshToken = signedIn.refreshToken
        expiresAt = ContractDates.string(signedIn.expiresAt)
        user = UserBody(signedIn.account)
    }

    enum CodingKeys: String, CodingKey { case token, refreshToken = "refresh_token", expiresAt = "expires_at", user }
}

/// `GET /auth/validate`: `{valid: true, expires_at, user}`.
package struct ValidateBody: Encodable {
    package var valid = true
    package var expiresAt: String
    package var user: UserBody

    package init(expiresAt: String, user: UserBody) {
        self.expiresAt = expiresAt
        self.user = user
    }

    enum CodingKeys: String, CodingKey { case valid, expiresAt = "expires_at", user }
}

/// ISO-8601 without fractional seconds: the app's decoder refuses `…00.123Z`.
package enum ContractDates {
    package static func string(_ date: Date) -> String {
        Timestamp.string(millis: Timestamp.millis(date), fraction: false)
    }

    /// A stored event time in whole seconds (`…00.123Z` → `…00Z`); text that is no time stays as it is.
    package static func seconds(_ time: String) -> String {
        Timestamp.millis(time).map { Timestamp.string(millis: $0, fraction: false) } ?? time
    }

    /// What the app sends: `2026-11-21T14:00:00Z`, with or without fractions, or with an offset.
    package static func parse(_ text: String) -> Int64? {
        if let millis = Timestamp.millis(text) { return millis }
        // Foundation's parser rolls hour 24 (and minute or second 60) into the next day; a time a
        // clock cannot show is refused, as `Timestamp` refuses it.
        let utf8 = Array(text.utf8)
        guard text.count <= 40, utf8.count >= 19, let hour = Int(String(decoding: utf8[11..<13], as: UTF8.self)),
              let minute = Int(String(decoding: utf8[14..<16], as: UTF8.self)), let second = Int(String(decoding: utf8[17..<19], as: UTF8.self)),
              hour < 24, minute < 60, second < 60 else { return nil }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return Timestamp.millis(date) }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Timestamp.millis($0) }
    }
}

/// `POST /auth/apple` and `/auth/google`: Apple's names come only on the first authorization.
package struct ProviderSignInRequest: Decodable {
    package var orgSlug: String?
    package var idToken: String
    package var firstName: String?
    package var lastName: String?
    package var role: String?
    package var nonce: String?
    package var deviceName: String?
    package var platform: String?
    enum CodingKeys: String, CodingKey {
        case orgSlug = "org_slug", idToken = "id_token", firstName = "first_name", lastName = "last_name", role, nonce, deviceName = "device_name",
             platform
    }
}

/// `POST /api/{app}/auth/verify-email`.
package struct VerifyEmailRequest: Decodable, Sendable {
    package var orgSlug: String?
    package var email: String
    package var code: String
    package var deviceName: String?
    package var platform: String?
    package var installId: String?
    enum CodingKeys: String, CodingKey { case orgSlug = "org_slug", email, code, deviceName = "device_name", platform, installId = "install_id" }
}

/// `POST /api/{app}/auth/second-factor/confirm` and `…/disable`.
package struct CodeRequest: Decodable, Sendable {
    package var code: String
}

/// `POST /api/{app}/auth/login/second-factor`.
package struct SecondFactorSignInRequest: Decodable, Sendable {
    package var challenge: String
    package var code: String
    package var deviceName: String?
    package var platform: String?
    enum CodingKeys: String, CodingKey { case challenge, code, deviceName = "device_name", platform }
}

/// A password sign-in of a person with a second factor on: no tokens yet, a challenge for the code.
package struct SecondFactorRequired: Encodable, Sendable {
    var secondFactorRequired = true
    var challenge: String
    var expiresAt: String
    enum CodingKeys: String, CodingKey { case secondFactorRequired = "second_factor_required", challenge, expiresAt = "expires_at" }
}

/// `POST /api/{app}/auth/second-factor`: the secret for the authenticator app, as text and as its URI (for a QR code).
package struct SecondFactorEnrollment: Encodable, Sendable {
    var secret: String
    var otpauthURI: String
    enum CodingKeys: String, CodingKey { case secret, otpauthURI = "otpauth_uri" }
}

/// `POST /api/{app}/auth/second-factor/confirm`: the recovery codes, shown only now.
package struct RecoveryCodes: Encodable, Sendable {
    var recoveryCodes: [String]
    enum CodingKeys: String, CodingKey { case recoveryCodes = "recovery_codes" }
}

/// `POST /api/{app}/me/email` and `…/confirm`.
package struct EmailChangeRequest: Decodable, Sendable {
    package var newEmail: String
    package var password: String?
    package var code: String?
    enum CodingKeys: String, CodingKey { case newEmail = "new_email", password, code }
}

/// `POST /api/{app}/auth/password-reset`.
package struct ResetRequest: Decodable, Sendable {
    package var orgSlug: String?
    package var email: String
    enum CodingKeys: String, CodingKey { case orgSlug = "org_slug", email }
}

/// `POST /api/{app}/auth/password-reset/confirm`.
package struct ResetConfirmRequest: Decodable, Sendable {
    package var orgSlug: String?
    package var email: String
    package var code: String
    package var newPassword: String
    enum CodingKeys: String, CodingKey { case orgSlug = "org_slug", email, code, newPassword = "new_password" }
}

/// The same answer whatever the address: `{status, message}` (202).
package struct AcceptedBody: Encodable, Sendable {
    package var status: String
    package var message: String
}

/// `GET /api/{app}/auth/sessions`.
package struct SessionsBody: Encodable, Sendable {
    package struct Session: Encodable, Sendable {
        var id: String
        var deviceName: String?
        var platform: String?
        var boundToDevice: Bool
        var startedAt: String
        var lastUsedAt: String
        var current: Bool
        enum CodingKeys: String, CodingKey {
            case id, deviceName = "device_name", platform, boundToDevice = "bound_to_device", startedAt = "started_at",
                 lastUsedAt = "last_used_at", current
        }
    }

    var sessions: [Session]

    package init(_ views: [People.SessionView]) {
        sessions = views.map {
            Session(id: $0.id, deviceName: $0.deviceName, platform: $0.platform, boundToDevice: $0.boundToDevice,
                    startedAt: ContractDates.seconds($0.startedAt), lastUsedAt: ContractDates.seconds($0.lastUsedAt), current: $0.current)
        }
    }
}

/// `DELETE /api/{app}/auth/sessions`: how many other sessions ended.
package struct EndedBody: Encodable, Sendable {
    package var ended: Int
}

/// `GET /api/{app}/me/export`: everything the platform and the app hold about the caller.
package struct ExportBody: Encodable, Sendable {
    struct Identity: Encodable, Sendable {
        var provider: String
        var subject: String
        var email: String?
        var phone: String?
        var linkedAt: String
        enum CodingKeys: String, CodingKey { case provider, subject, email, phone, linkedAt = "linked_at" }
    }

    struct Device: Encodable, Sendable {
        var id: String
        var platform: String
        var bundleId: String
        var registeredAt: String
        var topics: [String]
        enum CodingKeys: String, CodingKey { case id, platform, bundleId = "bundle_id", registeredAt = "registered_at", topics }
    }

    var exportedAt: String
    var app: String
    var profile: UserBody
    var emailVerified: Bool?
    var identities: [Identity]
    var sessions: SessionsBody
    var devices: [Device]
    var appData: JSONValue

    enum CodingKeys: String, CodingKey {
        case exportedAt = "exported_at", app, profile, emailVerified = "email_verified", identities, sessions, devices, appData = "app_data"
    }
}

// Sign-in and validation answers lay out their members by hand (in key order): `JSONResponse`
// writes them with MusterJSON, the bytes Foundation's encoder writes for their `Codable` form.

extension UserBody: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("email", email)
        try object.string("first_name", firstName)
        try object.string("id", id)
        try object.string("last_name", lastName)
        try object.string("organization_id", organizationId)
        try object.string("phone", phone)
        try object.string("role", role)
    }
}

extension SignedInBody: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("expires_at", expiresAt)
        try object.string("refresh_token", refreshToken)
        try object.string("token", token)
        try object.object("user", user.encodeMembers)
    }
}

extension ValidateBody: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("expires_at", expiresAt)
        try object.object("user", user.encodeMembers)
        try object.bool("valid", valid)
    }
}
