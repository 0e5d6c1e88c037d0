import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterPlatform
import MusterRuntime
import MusterStandIns
import MusterTesting
import Testing

/// Each app's people sign in by each method its module allows, through HTTP, with the stand-ins
/// `make run SIGNIN=standin` starts (Apple's keys, the mail service): the production list of apps.
@Suite("Every app's people sign in by every method it allows, and reset a forgotten password")
struct EveryAppSignInTests {
    /// app → (organisation, a role of it, methods) as the app modules declare them.
    static let declared: [(app: String, org: String, role: String, apple: String?)] = [
        ("opl", "opl", "moderator", nil), ("pop", "pop-sd", "learner", "com.peopleoverpartysd.pop"),
        ("shieldai", "shieldai", "customer", "com.kordant.shieldai"), ("field", "acme-build", "worker", nil),
        ("offleash", "demo", "customer", "com.offleash.ios"),
    ]

    @Test func everyAppsPeopleSignInByEveryAllowedMethodAndResetTheirPassword() async throws {
        let keys = IdentityStandIn.Keys(), mail = SMSStandIn.Recorder()
        try await Application(router: IdentityStandIn.router(keys: keys)).test(.live) { identity in
            try await Application(router: SMSStandIn.router(recorder: mail)).test(.live) { mailer in
                let (idPort, mailPort) = (try #require(identity.port), try #require(mailer.port))
                try await apps.withTestApp(["ingest", "moderation"], configure: {
                    $0[SignInSettings.self].appleKeysURL = "http://127.0.0.1:\(idPort)/apple/keys"
                    $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(mailPort)"
                    $0[InvitationSettings.self].mailKey = "SG.test"
                    $0.readRatePerMinute = 0
                    $0.writeRatePerMinute = 0
                }) { app in
                    let people = People.shared(in: app.env.environment)
                    for (name, org, role, apple) in Self.declared {
                        try await people.createOrganisationPatiently(slug: org, app: name, name: org)
                        let email = "\(role)@\(name).example"
                        _ = try await people.addPerson(People.Registration(orgSlug: org, email: email, firstName: "A", lastName: "Person", phone: nil,
                                                                           password: "Signing-In-2026", role: role))
                        func post(_ path: String, _ json: String) async throws -> TestResponse {
                            try await app.request("/api/\(name)/auth/\(path)", method: .post, json: json)
                        }
                        // Password.
                        let login = try await post("login", #"{"org_slug": "\#(org)", "email": "\#(email)", "password": "Signing-In-2026"}"#)
                        #expect(login.status == .ok, "\(name) password: \(login.text)")
                        let token = try #require(login.json["token"] as? String, "\(name): \(login.text)")
                        let validated = try await app.request("/api/\(name)/auth/validate", headers: [.authorization: "Bearer \(token)"])
                        #expect(validated.status == .ok && (validated.json["user"] as? [String: Any])?["role"] as? String == role, "\(name): \(validated.text)")
                        // Apple, where the app allows it (its own bundle id); elsewhere the route is not there.
                        let idToken = try #require(try await keys.token(.init(provider: "apple", sub: "apple-\(name)", email: "apple-\(name)@privaterelay.appleid.com",
                                                                              aud: apple ?? "com.nobody")))
                        let viaApple = try await post("apple", #"{"org_slug": "\#(org)", "id_token": "\#(idToken)", "first_name": "Appl"}"#)
                        #expect(viaApple.status == (apple == nil ? .notFound : .ok), "\(name) apple: \(viaApple.status) \(viaApple.text)")
                        // A password reset through the mail stand-in.
                        #expect(try await post("password-reset", #"{"org_slug": "\#(org)", "email": "\#(email)"}"#).status == .accepted)
                        let code = try await Self.code(for: email, in: mail)
                        let reset = try await post("password-reset/confirm",
                                                   #"{"org_slug": "\#(org)", "email": "\#(email)", "code": "\#(code)", "new_password": "Reset-Anew-2026"}"#)
                        #expect(reset.status == .ok, "\(name) reset: \(reset.text)")
                        #expect(try await app.request("/api/\(name)/auth/validate", headers: [.authorization: "Bearer \(token)"]).status == .unauthorized,
                                "\(name): the reset ended the session")
                        #expect(try await post("login", #"{"org_slug": "\#(org)", "email": "\#(email)", "password": "Reset-Anew-2026"}"#).status == .ok)
                        // PoP: a sign-in that names its install links it there and then, with the app's key as the link route asks.
                        if name == "pop" {
                            let install = UUID().uuidString.lowercased()
                            let body = #"{"email": "\#(email)", "password": "Reset-Anew-2026", "install_id": "\#(install)"}"#
                            #expect(try await app.request("/api/pop/auth/login", method: .post, json: body).status == .unauthorized, "no key, no link")
                            let key = try await app.key(app: "pop", ["read:civics", "write:civics"])
                            #expect(try await app.request("/api/pop/auth/login", method: .post, key: key, json: body).status == .ok)
                            let pulled = try await app.request("/api/pop/installs/\(install)/progress", key: key)
                            #expect(pulled.json["linked"] as? Bool == true, "\(pulled.text)")
                            let elsewhere = try await app.request("/api/opl/auth/login", method: .post, key: key,
                                                                  json: #"{"org_slug": "opl", "email": "moderator@opl.example", "password": "Reset-Anew-2026", "install_id": "\#(install)"}"#)
                            #expect(elsewhere.status == .unprocessableContent, "an app that links no installs refuses install_id: \(elsewhere.text)")
                        }
                        // Another app's token is a stranger on this app's paths.
                        let other = name == "opl" ? "pop" : "opl"
                        #expect(try await app.request("/api/\(other)/auth/validate", headers: [.authorization: "Bearer \(token)"]).status == .unauthorized)
                    }
                }
            }
        }
    }

    static func code(for email: String, in mail: SMSStandIn.Recorder) async throws -> String {
        for _ in 0..<100 {
            let sent: [SMSStandIn.Message] = await mail.messages
            if let body = sent.last(where: { $0.to == email })?.body,
               let code = body.split(separator: " ").map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: ".;")) })
                .first(where: { $0.count == 6 && $0.allSatisfy(\.isNumber) }) { return code }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no code was mailed to \(email)")
        return ""
    }
}
