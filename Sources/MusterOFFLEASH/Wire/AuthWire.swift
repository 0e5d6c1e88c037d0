import Foundation
import MusterEvents
import MusterPlatform

/// OFFLEASH's account bodies, as `contracts/offleash-api.md` spells them: snake_case both ways.
struct RegisterRequest: Decodable {
    var orgSlug: String?
    var firstName: String
    var lastName: String
    var email: String
    var phone: String?
    var password: String

    enum CodingKeys: String, CodingKey {
        case orgSlug = "org_slug", firstName = "first_name", lastName = "last_name", email, phone, password
    }
}

struct LoginRequest: Decodable {
    var orgSlug: String?
    var email: String
    var password: String

    enum CodingKeys: String, CodingKey { case orgSlug = "org_slug", email, password }
}

struct RefreshRequest: Decodable {
    var refreshToken: String
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `PUT /users/me`: each key omitted when the screen has no value (the walker screen may send `""`).
struct ProfileRequest: Decodable {
    var firstName: String?
    var lastName: String?
    var phone: String?

    enum CodingKeys: String, CodingKey { case firstName = "first_name", lastName = "last_name", phone }
}

/// `PUT /users/me/password`: `current_password` is left out when the field is empty.
struct PasswordChangeRequest: Decodable {
    var currentPassword: String?
    var newPassword: String

    enum CodingKeys: String, CodingKey { case currentPassword = "current_password", newPassword = "new_password" }
}

struct PasswordChanged: Encodable {
    var success = true
    var message = "Password updated"
}

/// `Membership`: the app fails the whole answer on a role other than customer, walker, admin or owner.
struct MembershipBody: Encodable {
    var id: String
    var organizationId: String
    var organizationName: String
    var organizationSlug: String
    var role: String
    var title: String?
    var joinedAt: String

    init(_ membership: People.Membership) {
        title = membership.title
        id = membership.id
        organizationId = membership.orgId
        organizationName = membership.orgName
        organizationSlug = membership.orgSlug
        role = [OFFLEASHRole.walker, .admin, .owner].map(\.rawValue).contains(membership.role) ? membership.role : OFFLEASHRole.customer.rawValue
        // Any text is accepted here; whole seconds all the same.
        joinedAt = ContractDates.seconds(membership.joinedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, organizationId = "organization_id", organizationName = "organization_name", organizationSlug = "organization_slug", role, title,
             joinedAt = "joined_at"
    }
}

/// `GET /contexts`.
struct ContextsBody: Encodable {
    var userId: String
    var email: String
    var firstName: String
    var lastName: String
    var defaultMembershipId: String?
    var memberships: [MembershipBody]

    init(account: People.AccountView, memberships: [MembershipBody], defaultMembershipId: String?) {
        userId = account.personId
        email = account.email
        firstName = account.firstName
        lastName = account.lastName
        self.defaultMembershipId = defaultMembershipId
        self.memberships = memberships
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id", email, firstName = "first_name", lastName = "last_name", defaultMembershipId = "default_membership_id", memberships
    }
}

struct CreateTenantRequest: Decodable {
    var businessName: String
    var slug: String?
    enum CodingKeys: String, CodingKey { case businessName = "business_name", slug }
}

/// `{id, name, slug}` as the app decodes it, and the owner's membership.
struct TenantCreated: Encodable {
    var id, name, slug, membershipId: String
    enum CodingKeys: String, CodingKey { case id, name, slug, membershipId = "membership_id" }
}

struct JoinedBody: Encodable {
    var membership: MembershipBody
}

struct SwitchRequest: Decodable {
    var membershipId: String
    enum CodingKeys: String, CodingKey { case membershipId = "membership_id" }
}

/// `POST /contexts/switch`: `{token, membership}`.
struct SwitchedBody: Encodable {
    var token: String
    var membership: MembershipBody
}

struct ForgetRequest: Decodable {
    var password: String
}

/// `user` in every answer: `{id, email, first_name, last_name, role, organization_id}` (+ `phone`).
struct UserBody: Encodable {
    var id: String
    var email: String
    var firstName: String
    var lastName: String
    var phone: String?
    var role: String
    var organizationId: String

    init(_ account: People.AccountView) {
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
struct SignedInBody: Encodable {
    var token: String
    var refreshToken: String
    var expiresAt: String
    var user: UserBody

    init(_ signedIn: People.SignedIn) {
        token = signedIn.accessToken
        refreshToken = signedIn.refreshToken
        expiresAt = ContractDates.string(signedIn.expiresAt)
        user = UserBody(signedIn.account)
    }

    enum CodingKeys: String, CodingKey { case token, refreshToken = "refresh_token", expiresAt = "expires_at", user }
}

/// `GET /auth/validate`: `{valid: true, expires_at, user}`.
struct ValidateBody: Encodable {
    var valid = true
    var expiresAt: String
    var user: UserBody

    enum CodingKeys: String, CodingKey { case valid, expiresAt = "expires_at", user }
}

/// ISO-8601 without fractional seconds: the app's decoder refuses `…00.123Z`.
enum ContractDates {
    static func string(_ date: Date) -> String {
        Timestamp.string(millis: Timestamp.millis(date), fraction: false)
    }

    /// A stored event time in whole seconds (`…00.123Z` → `…00Z`); text that is no time stays as it is.
    static func seconds(_ time: String) -> String {
        Timestamp.millis(time).map { Timestamp.string(millis: $0, fraction: false) } ?? time
    }

    /// What the app sends: `2026-11-21T14:00:00Z`, with or without fractions, or with an offset.
    static func parse(_ text: String) -> Int64? {
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
