import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterStandIns
import MusterAppTesting
import MusterPlatform
import MusterRuntime
import NIOFoundationEssentialsCompat
import Testing

/// The user Apple, Google or a phone number signs in.
struct ContractPhoneSignedIn: Decodable {
    struct User: Decodable {
        var id: String
        var phone: String
        var email: String?
        var role: String?
    }
    var token: String
    var user: User
}

struct ContractIdentity: Decodable {
    enum Provider: String, Decodable { case email, google, apple, phone }
    var id: String
    var userId: String
    var provider: Provider
    var providerUserId: String
    var email: String?
    var phone: String?
    var isPrimary: Bool
    var createdAt: Date?
    enum CodingKeys: String, CodingKey {
        case id, userId = "user_id", provider, providerUserId = "provider_user_id", email, phone, isPrimary = "is_primary", createdAt = "created_at"
    }
}

/// Sign in with Apple, Google and a phone number, through the real verifying and sending code,
/// against local stand-ins for Apple's and Google's key endpoints and for Twilio.
@Suite("OFFLEASH sign-in with Apple, Google and phone codes")
struct SignInTests {
    struct Rig {
        var app: TestApp
        var keys: IdentityStandIn.Keys
        var sms: SMSStandIn.Recorder

        func token(_ provider: String, sub: String, email: String? = nil, verified: Bool? = true, aud: String? = nil, expiresIn: Int? = nil) async throws -> String {
            try #require(try await keys.token(IdentityStandIn.TokenRequest(provider: provider, sub: sub, email: email, emailVerified: verified, aud: aud,
                                                                            expiresIn: expiresIn)))
        }

        /// The code of the last text sent to `phone`.
        func code(for phone: String) async -> String? {
            let messages: [SMSStandIn.Message] = await sms.messages
            guard let text = messages.last(where: { $0.to == phone })?.body else { return nil }
            let words: [Substring] = text.split(separator: " ")
            return words.first(where: { $0.count == 6 && $0.allSatisfy(\.isNumber) }).map(String.init)
        }
    }

    static func withRig(_ body: @escaping @Sendable (Rig) async throws -> Void) async throws {
        let keys = IdentityStandIn.Keys(), sms = SMSStandIn.Recorder()
        try await Application(router: IdentityStandIn.router(keys: keys)).test(.live) { identity in
            try await Application(router: SMSStandIn.router(recorder: sms)).test(.live) { texts in
                let (idPort, smsPort) = (try #require(identity.port), try #require(texts.port))
                try await apps.withTestApp(["ingest"], configure: {
                    $0[SignInSettings.self].appleKeysURL = "http://127.0.0.1:\(idPort)/apple/keys"
                    $0[SignInSettings.self].googleKeysURL = "http://127.0.0.1:\(idPort)/google/keys"
                    $0[SignInSettings.self].smsURL = "http://127.0.0.1:\(smsPort)"
                    $0[SignInSettings.self].smsAccount = "ACtest"
                    $0[SignInSettings.self].smsToken = "secret"
                }) { app in
                    let people = People.shared(in: app.env.environment)
                    try await people.createOrganisationPatiently(slug: "demo", app: "offleash", name: "Demo walks")
                    try await body(Rig(app: app, keys: keys, sms: sms))
                }
            }
        }
    }

    @Test func appleSignsInOnceAndAgainWithoutTheEmailAndNamesOnlyTheFirstTime() async throws {
        try await Self.withRig { rig in
            let first = try await rig.app.request("/auth/apple", method: .post, json: """
            {"org_slug": "demo", "id_token": "\(try await rig.token("apple", sub: "001234.apple", email: "sam@privaterelay.appleid.com"))",
             "first_name": "Sam", "last_name": "Rivera", "role": "walker"}
            """)
            #expect(first.status == .ok, "\(first.text)")
            let signedIn = try WalksContractTests.decode(ContractSignedIn.self, first)
            #expect(signedIn.user.email == "sam@privaterelay.appleid.com" && signedIn.user.firstName == "Sam" && signedIn.user.role == "customer")
            let again = try WalksContractTests.decode(ContractSignedIn.self, try await rig.app.request("/auth/apple", method: .post, json: """
            {"org_slug": "demo", "id_token": "\(try await rig.token("apple", sub: "001234.apple"))", "role": "customer"}
            """))
            #expect(again.user.id == signedIn.user.id, "the same Apple account is the same person")
            let bearer = AccountContractTests.bearer(again.token)
            let identities = try rig.app.decodeJSON([String: [ContractIdentity]].self, try await rig.app.request("/users/me/identities", headers: bearer))["identities"] ?? []
            #expect(identities.map(\.provider) == [.apple] && identities.first?.isPrimary == true)
            // No password yet: the first one is set without a current one; then the email is a sign-in method too.
            #expect(try await rig.app.request("/users/me/password", method: .put, headers: bearer, json: #"{"new_password": "Leashes2027"}"#).status == .ok)
            let after = try rig.app.decodeJSON([String: [ContractIdentity]].self, try await rig.app.request("/users/me/identities", headers: bearer))["identities"] ?? []
            #expect(Set(after.map(\.provider)) == [.email, .apple] && after.filter(\.isPrimary).count == 1)
        }
    }

    @Test func forgedExpiredForeignAndUnverifiedTokensAreRefused() async throws {
        try await Self.withRig { rig in
            let forged = try await rig.token("apple", sub: "g-1", email: "g@example.com") // Apple's key, presented as Google's
            let cases = [(forged, "forged"),
                         (try await rig.token("google", sub: "g-1", email: "g@example.com", expiresIn: -60), "expired"),
                         (try await rig.token("google", sub: "g-1", email: "g@example.com", aud: "someone-elses.apps.googleusercontent.com"), "another app's"),
                         (try await rig.token("google", sub: "g-1", email: "g@example.com", verified: false), "unverified email"),
                         ("not.a.token", "junk")]
            for (token, what) in cases {
                let response = try await rig.app.request("/auth/google", method: .post, json: #"{"org_slug": "demo", "id_token": "\#(token)", "role": "customer"}"#)
                #expect(response.status == .badRequest, "\(what): \(response.text)")
            }
            // An email with a password account of its own is not taken over by a Google account claiming it.
            _ = try await AccountContractTests.register(rig.app, email: "owner@example.com")
            let claimed = try await rig.app.request("/auth/google", method: .post, json: """
            {"org_slug": "demo", "id_token": "\(try await rig.token("google", sub: "g-2", email: "owner@example.com"))", "role": "customer"}
            """)
            #expect(claimed.status == .conflict && claimed.errorMessage.contains("Connected Accounts"), "\(claimed.text)")
        }
    }

    @Test func googleLinksToAPasswordAccountAndUnlinksButNeverThePrimaryOrAnothers() async throws {
        try await Self.withRig { rig in
            let owner = try WalksContractTests.decode(ContractSignedIn.self, try await AccountContractTests.register(rig.app, email: "lee@example.com"))
            let bearer = AccountContractTests.bearer(owner.token)
            let google = try await rig.token("google", sub: "g-lee", email: "lee@gmail.com")
            let linked = try await rig.app.request("/users/me/identities/google", method: .post, headers: bearer, json: #"{"id_token": "\#(google)"}"#)
            #expect(linked.status == .ok, "\(linked.text)")
            let identity = try rig.app.decodeJSON([String: ContractIdentity].self, linked)["identity"]
            #expect(identity?.provider == .google && identity?.isPrimary == false && identity?.email == "lee@gmail.com")
            let again = try rig.app.decodeJSON([String: ContractIdentity].self, try await rig.app.request("/users/me/identities/google", method: .post, headers: bearer,
                                                                                                         json: #"{"id_token": "\#(google)"}"#))["identity"]
            #expect(again?.id == identity?.id, "the same Google account again answers the link, never null")
            // Google sign-in now finds Lee.
            let viaGoogle = try WalksContractTests.decode(ContractSignedIn.self, try await rig.app.request("/auth/google", method: .post, json: """
            {"org_slug": "demo", "id_token": "\(google)", "role": "customer"}
            """))
            #expect(viaGoogle.user.id == owner.user.id)
            // Someone else may not link Lee's Google account.
            let other = AccountContractTests.bearer(try WalksContractTests.decode(ContractSignedIn.self, try await AccountContractTests.register(rig.app, email: "kim@example.com")).token)
            #expect(try await rig.app.request("/users/me/identities/google", method: .post, headers: other, json: #"{"id_token": "\#(google)"}"#).status == .conflict)
            let list = try rig.app.decodeJSON([String: [ContractIdentity]].self, try await rig.app.request("/users/me/identities", headers: bearer))["identities"] ?? []
            let email = try #require(list.first { $0.provider == .email })
            #expect(email.isPrimary)
            #expect(try await rig.app.request("/users/me/identities/\(email.id)", method: .delete, headers: bearer).status == .conflict)
            #expect(try await rig.app.request("/users/me/identities/\(identity?.id ?? "")", method: .delete, headers: other).status == .notFound)
            #expect(try await rig.app.request("/users/me/identities/\(identity?.id ?? "")", method: .delete, headers: bearer).status == .noContent)
            // Unlinked, the Google account is nobody's: signing in with it makes a new person, not Lee.
            let viaGoogleAfter = try WalksContractTests.decode(ContractSignedIn.self, try await rig.app.request("/auth/google", method: .post,
                json: #"{"org_slug": "demo", "id_token": "\#(google)", "role": "customer"}"#))
            #expect(viaGoogleAfter.user.id != owner.user.id && viaGoogleAfter.user.email == "lee@gmail.com")
        }
    }

    @Test func phoneCodesAreSentHashedExpireLockAndAreUsedOnce() async throws {
        try await Self.withRig { rig in
            let phone = "+15555550123"
            let sent = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "\#(phone)", "org_slug": "demo"}"#)
            #expect(sent.status == .ok && sent.json["success"] as? Bool == true && sent.json["expires_at"] is String, "\(sent.text)")
            let code = try #require(await rig.code(for: phone))
            let wrong = code == "000000" ? "111111" : "000000"
            let verify: @Sendable (String) -> String = { code in #"{"phone": "\#(phone)", "code": "\#(code)", "org_slug": "demo", "role": "customer"}"# }
            #expect(try await rig.app.request("/auth/phone/verify", method: .post, json: verify(wrong)).status == .badRequest)
            // Ten taps of the right code at once: it signs in once.
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<10 { group.addTask { try await rig.app.request("/auth/phone/verify", method: .post, json: verify(code)).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .gone }.count == 9, "\(statuses)")
            // Signing in again with a new code finds the same person, with the phone the app requires.
            _ = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "\#(phone)", "org_slug": "demo"}"#)
            let second = try await rig.app.request("/auth/phone/verify", method: .post, json: verify(try #require(await rig.code(for: phone))))
            let user = try WalksContractTests.decode(ContractPhoneSignedIn.self, second).user
            #expect(user.phone == phone)
            // A third code this hour is the last; a fourth is 429. Five wrong tries lock a code (410).
            #expect(try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "\#(phone)", "org_slug": "demo"}"#).status == .ok)
            let limited = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "\#(phone)", "org_slug": "demo"}"#)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil)
            let other = "+447700900123"
            _ = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "\#(other)", "org_slug": "demo"}"#)
            let otherCode = try #require(await rig.code(for: other))
            let otherWrong = otherCode == "000000" ? "111111" : "000000"
            let verifyOther: @Sendable (String) -> String = { code in #"{"phone": "\#(other)", "code": "\#(code)", "org_slug": "demo", "role": "customer"}"# }
            for _ in 0..<5 { #expect(try await rig.app.request("/auth/phone/verify", method: .post, json: verifyOther(otherWrong)).status == .badRequest) }
            #expect(try await rig.app.request("/auth/phone/verify", method: .post, json: verifyOther(otherCode)).status == .gone, "locked")
            #expect(try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "555-0123", "org_slug": "demo"}"#).status == .unprocessableContent)
            // The provider failing is a 503 with a message, not a code the person never gets.
            await rig.sms.failNext(1)
            let down = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "+15555550199", "org_slug": "demo"}"#)
            #expect(down.status == .serviceUnavailable && !down.errorMessage.isEmpty)
        }
    }
}
