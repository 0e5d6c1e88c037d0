import Foundation
import MusterEvents
import MusterPlatform

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

