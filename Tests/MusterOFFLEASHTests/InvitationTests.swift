import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterStandIns
import MusterAppTesting
import MusterOFFLEASH
import MusterPlatform
import MusterRuntime
import Testing

/// Invitations as the app's invite screens send them: by email (SendGrid-compatible) and by text
/// (Twilio-compatible), both through the real sending code to the local stand-in, and joining with
/// the code the message carries.
@Suite("OFFLEASH invitations: invite walkers and customers, join with the code")
struct InvitationTests {
    struct Rig {
        var app: TestApp
        var messages: SMSStandIn.Recorder
        /// The owner of "Happy Paws" (their token scoped to it) and a customer of the demo org.
        var owner: HTTPFields
        var customer: HTTPFields

        /// The code in the last message to `contact`.
        func code(for contact: String) async -> String? {
            let sent: [SMSStandIn.Message] = await messages.messages
            guard let text = sent.last(where: { $0.to == contact })?.body else { return nil }
            return text.split(separator: " ").first { $0.count == 33 && $0.hasSuffix(".") }.map { String($0.dropLast()) }
        }

        func count(to contact: String) async -> Int { await messages.messages.filter { $0.to == contact }.count }
    }

    static func withRig(_ body: @escaping @Sendable (Rig) async throws -> Void) async throws {
        let recorder = SMSStandIn.Recorder()
        try await Application(router: SMSStandIn.router(recorder: recorder)).test(.live) { standIn in
            let port = try #require(standIn.port)
            try await apps.withTestApp(["ingest"], configure: {
                $0[SignInSettings.self].smsURL = "http://127.0.0.1:\(port)"
                $0[SignInSettings.self].smsAccount = "ACtest"
                $0[SignInSettings.self].smsToken = "secret"
                $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(port)"
                $0[InvitationSettings.self].mailKey = "SG.test"
            }) { app in
                try await People.shared(in: app.env.environment).createOrganisationPatiently(slug: "demo", app: "offleash", name: "Demo walks")
                let founder = AccountContractTests.bearer(try await AppScreensTests.customer(app, "founder@example.com"))
                let created = try await app.request("/walker/create-tenant", method: .post, headers: founder, json: #"{"business_name": "Happy Paws"}"#)
                let switched = try await app.request("/contexts/switch", method: .post, headers: founder,
                                                     json: #"{"membership_id": "\#(try #require(created.json["membership_id"] as? String, "\(created.status): \(created.text)"))"}"#)
                let owner = AccountContractTests.bearer(try #require(switched.json["token"] as? String, "\(switched.status): \(switched.text)"))
                let customer = AccountContractTests.bearer(try await AppScreensTests.customer(app, "casey@example.com"))
                try await body(Rig(app: app, messages: recorder, owner: owner, customer: customer))
            }
        }
    }

    @Test func anOwnerInvitesAWalkerByEmailAndTheWalkerJoinsWithTheCode() async throws {
        try await Self.withRig { rig in
            let app = rig.app
            // Not the owner's to invite walkers: a customer of another business.
            #expect(try await app.request("/walker/invite", method: .post, headers: rig.customer, json: #"{"email": "sam@example.com"}"#).status == .forbidden)
            let sent = try await app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": " Sam@Example.com "}"#)
            #expect(sent.status == .ok && sent.json["success"] as? Bool == true && sent.json["message"] is String, "\(sent.text)")
            let mail = try #require(await rig.messages.messages.last)
            #expect(mail.to == "sam@example.com" && mail.subject == "Join Happy Paws on OFFLEASH" && mail.body.contains("walk dogs for Happy Paws"))
            #expect(try await app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": "sam@example.com"}"#).status == .conflict,
                    "one pending invitation per contact")
            let code = try #require(await rig.code(for: "sam@example.com"))

            // Sam signs up (a customer of the demo org) and joins; taps at once by Sam and by a stranger with the same code.
            let sam = AccountContractTests.bearer(try await AppScreensTests.customer(app, "sam@example.com"))
            let stranger = AccountContractTests.bearer(try await AppScreensTests.customer(app, "stranger@example.com"))
            let answers = try await withThrowingTaskGroup(of: (Bool, HTTPResponse.Status, String?).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let joined = try await app.request("/walker/join-tenant", method: .post, headers: index % 2 == 0 ? sam : stranger,
                                                           json: #"{"invite_token": "\#(code)"}"#)
                        return (index % 2 == 0, joined.status, joined.json["tenant_name"] as? String)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = Set(answers.filter { $0.1 == .ok }.map(\.0))
            #expect(winners.count == 1, "one person joins with one code: \(answers.map(\.1))")
            #expect(answers.filter { $0.1 == .ok }.allSatisfy { $0.2 == "Happy Paws" })
            #expect(answers.allSatisfy { [.ok, .conflict, .notFound].contains($0.1) }, "\(answers.map(\.1))")
            let joiner = winners.first == true ? sam : stranger
            let contexts = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: joiner))
            #expect(contexts.memberships.filter { $0.organizationName == "Happy Paws" }.map(\.role) == [.walker])
            let loser = winners.first == true ? stranger : sam
            let lost = try await app.request("/walker/join-tenant", method: .post, headers: loser, json: #"{"invite_token": "\#(code)"}"#)
            #expect(lost.status == .notFound && lost.errorMessage.contains("invalid or has expired"), "a used code opens nothing: \(lost.text)")
            #expect(try await app.request("/walker/join-tenant", method: .post, headers: joiner, json: #"{"invite_token": "\#(code)"}"#).status == .conflict,
                    "a member already")
            // A code of another app's organisation, a made-up code, an absurd one: 404 alike.
            for junk in ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", String(repeating: "x", count: 1000), ""] {
                #expect(try await app.request("/walker/join-tenant", method: .post, headers: rig.customer, json: #"{"invite_token": "\#(junk)"}"#).status == .notFound)
            }
            #expect(try await app.request("/walker/join-tenant", method: .post, headers: rig.customer, json: #"{}"#).status == .badRequest)
        }
    }

    @Test func fiftyInvitesOfOneContactAtOnceMakeOneAndTextsGoAsTyped() async throws {
        try await Self.withRig { rig in
            let app = rig.app
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await app.request("/client/invite", method: .post, headers: rig.owner, json: #"{"phone": "(605) 555-0142"}"#).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .conflict }.count == 49, "\(statuses)")
            #expect(await rig.count(to: "+16055550142") == 1, "one text for one invitation")
            let text = try #require(await rig.messages.messages.last { $0.to == "+16055550142" })
            #expect(text.subject == nil && text.body.contains("book walks with Happy Paws"))
            // The customer who joins with it is Happy Paws' customer.
            let code = try #require(await rig.code(for: "+16055550142"))
            #expect(try await app.request("/walker/join-tenant", method: .post, headers: rig.customer, json: #"{"invite_token": "\#(code)"}"#).status == .ok)
            let contexts = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: rig.customer))
            #expect(contexts.memberships.map(\.role) == [.customer, .customer] && contexts.memberships.last?.organizationName == "Happy Paws")

            // Hostile and malformed bodies: 422 with the field, 400, 413.
            for body in [#"{"email": "a@example.com", "phone": "6055550100"}"#, "{}", #"{"email": "not an email"}"#, #"{"phone": "555-0100"}"#,
                         #"{"phone": "+1 605 555 0100 +1"}"#] {
                let refused = try await app.request("/client/invite", method: .post, headers: rig.owner, json: body)
                #expect(refused.status == .unprocessableContent && !refused.errorMessage.isEmpty, "\(body): \(refused.text)")
            }
            #expect(try await app.request("/client/invite", method: .post, headers: rig.owner, json: "[").status == .badRequest)
            #expect(try await app.request("/client/invite", method: .post, headers: rig.owner,
                                          json: #"{"email": "\#(String(repeating: "a", count: 5000))@example.com"}"#).status == .contentTooLarge)
        }
    }

    @Test func anUndeliveredInvitationCanBeSentAgainAndTwentyAnHourIsTheLimit() async throws {
        try await Self.withRig { rig in
            let app = rig.app
            await rig.messages.failNext(1)
            let down = try await app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": "lee@example.com"}"#)
            #expect(down.status == .serviceUnavailable && !down.errorMessage.isEmpty, "\(down.text)")
            #expect(try await app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": "lee@example.com"}"#).status == .ok,
                    "the undelivered one was withdrawn, so trying again sends")
            var sent = 2 // the undelivered one counts too
            while sent < Invitations.perInviterPerHour {
                let response = try await app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": "walker\#(sent)@example.com"}"#)
                #expect(response.status == .ok, "\(response.text)")
                sent += 1
            }
            let limited = try await app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": "one-more@example.com"}"#)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil, "\(limited.text)")
        }
    }

    @Test func thirtyInvitesToThirtyPeopleAtOnceSendTwenty() async throws {
        try await Self.withRig { rig in
            let app = rig.app
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<30 {
                    group.addTask { try await app.request("/client/invite", method: .post, headers: rig.owner, json: #"{"email": "friend\#(index)@example.com"}"#).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == Invitations.perInviterPerHour && statuses.filter { $0 == .tooManyRequests }.count == 10,
                    "the hour's limit holds however many are asked at once: \(statuses)")
            #expect(await rig.messages.messages.count == Invitations.perInviterPerHour)
        }
    }

    @Test func anExpiredCodeOpensNothing() async throws {
        try await Self.withRig { rig in
            #expect(try await rig.app.request("/walker/invite", method: .post, headers: rig.owner, json: #"{"email": "late@example.com"}"#).status == .ok)
            let code = try #require(await rig.code(for: "late@example.com"))
            let people = People.shared(in: rig.app.env.environment)
            let late = try await people.validate(try await AppScreensTests.customer(rig.app, "late@example.com"), app: "offleash")
            let invitations = Invitations(people: people, sms: nil, mail: nil, link: nil, wording: OFFLEASHApp.invitationWording)
            await #expect(throws: InvitationError.self) {
                _ = try await invitations.accept(late, code: code, now: Date().addingTimeInterval(7 * 86_400 + 60))
            }
            #expect(try await invitations.accept(late, code: code).orgName == "Happy Paws", "a day before it expires, it opens")
        }
    }
}
