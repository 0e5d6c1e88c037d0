import Foundation
import MusterEvents
import MusterPlatform

struct SendCodeRequest: Decodable {
    var phone: String
    var orgSlug: String?
    enum CodingKeys: String, CodingKey { case phone, orgSlug = "org_slug" }
}

struct CodeSent: Encodable {
    var success = true
    var message = "Code sent"
    var expiresAt: String
    enum CodingKeys: String, CodingKey { case success, message, expiresAt = "expires_at" }
}

struct VerifyCodeRequest: Decodable {
    var phone: String
    var code: String
    var orgSlug: String?
    var role: String?
    enum CodingKeys: String, CodingKey { case phone, code, orgSlug = "org_slug", role }
}

/// Phone sign-in's `user`: `phone` required, the rest optional.
struct PhoneSignedInBody: Encodable {
    struct User: Encodable {
        var id: String
        var phone: String
        var email: String
        var firstName: String?
        var lastName: String?
        var role: String
        var organizationId: String
        enum CodingKeys: String, CodingKey { case id, phone, email, firstName = "first_name", lastName = "last_name", role, organizationId = "organization_id" }
    }
    var token: String
    var user: User

    init(_ signedIn: People.SignedIn, phone: String) {
        token = signedIn.accessToken
        let a = signedIn.account
        user = User(id: a.personId, phone: a.phone ?? phone, email: a.email, firstName: a.firstName.isEmpty ? nil : a.firstName,
                    lastName: a.lastName.isEmpty ? nil : a.lastName, role: a.role, organizationId: a.orgId)
    }
}

struct LinkGoogleRequest: Decodable {
    var idToken: String
    enum CodingKeys: String, CodingKey { case idToken = "id_token" }
}

/// `UserIdentity`.
struct IdentityBody: Encodable {
    var id: String
    var userId: String
    var provider: String
    var providerUserId: String
    var email: String?
    var phone: String?
    var isPrimary: Bool
    var createdAt: String?

    init(_ view: People.IdentityView) {
        (id, userId, provider, email, phone, isPrimary) = (view.id, view.personId, view.provider, view.email, view.phone, view.isPrimary)
        // Not shown by the app; enough to tell two apart without handing out the provider's id.
        providerUserId = view.provider == "email" ? view.subject : String(view.subject.prefix(4)) + "…"
        createdAt = Timestamp.millis(view.createdAt).map { Timestamp.string(millis: $0, fraction: false) }
    }

    enum CodingKeys: String, CodingKey {
        case id, userId = "user_id", provider, providerUserId = "provider_user_id", email, phone, isPrimary = "is_primary", createdAt = "created_at"
    }
}

struct IdentityList: Encodable { var identities: [IdentityBody] }
struct IdentityLinkedBody: Encodable { var identity: IdentityBody }
