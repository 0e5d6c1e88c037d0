/// `POST /walker/invite` and `/client/invite`: `{email}` or `{phone}`, exactly one.
struct InviteRequest: Decodable {
    var email: String?
    var phone: String?
}

/// `{success, message}`: the app shows "Invitation Sent!".
struct InviteSentBody: Encodable {
    var success = true
    var message = "Invitation sent"
}

/// `POST /walker/join-tenant`: the code the invitation carried.
struct JoinTenantRequest: Decodable {
    var inviteToken: String
    enum CodingKeys: String, CodingKey { case inviteToken = "invite_token" }
}

/// `{success, tenant_name, message}`: the app's welcome names the business.
struct JoinedTenantBody: Encodable {
    var success = true
    var tenantName: String
    var message: String
    enum CodingKeys: String, CodingKey { case success, tenantName = "tenant_name", message }
}
