import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterPlatform
import MusterStandIns
import Testing

/// What a hostile caller found, each shown closed: a business's admin learning of another
/// business's bookings, anyone spending the operator's texts, and an address that locks a phone
/// number's owner out of signing in with it.
@Suite("Hostile callers: what another business, a stranger and a squatter cannot do")
struct HostileCallerFindingsTests {
    @Test func anAdminOfAnotherBusinessIsToldABookingDoesNotExistAsForAnUnknownId() async throws {
        try await WalksContractTests.withOrg { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            let slots = try WalksContractTests.decode(ContractSlots.self, try await app.request(
                "/availability/slots?service_id=\(org.service.id)&location_id=\(org.location.id)&date=\(org.monday)", headers: customer))
            let start = try #require(slots.slots.first).startTime
            let booked = try await app.request("/bookings", method: .post, headers: customer, json: """
            {"walker_id": null, "service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(ISO8601DateFormatter().string(from: start))"}
            """)
            let booking = try WalksContractTests.decode(ContractBooking.self, booked)

            // Another business, with an admin of its own.
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "rival", app: "offleash", name: "Rival walks")
            _ = try await people.addPerson(People.Registration(orgSlug: "rival", email: "boss@rival.example", firstName: "Rival", lastName: "Boss",
                                                               phone: nil, password: "Walkies2026", role: "admin"))
            let login = try await app.request("/auth/login", method: .post,
                                              json: #"{"email": "boss@rival.example", "password": "Walkies2026", "org_slug": "rival"}"#)
            let rival = AccountContractTests.bearer(try WalksContractTests.decode(ContractSignedIn.self, login).token)

            let unknown = UUID().uuidString.lowercased()
            for action in ["cancel", "confirm", "complete"] {
                let theirs = try await app.request("/bookings/\(booking.id)/\(action)", method: .post, headers: rival)
                let none = try await app.request("/bookings/\(unknown)/\(action)", method: .post, headers: rival)
                #expect(theirs.status == .notFound && none.status == .notFound, "\(action): \(theirs.status) \(theirs.text)")
                #expect(theirs.errorMessage.replacingOccurrences(of: booking.id, with: unknown) == none.errorMessage, "the same answer, but the id")
            }
            // The booking's own business still runs it.
            let admin = AccountContractTests.bearer(org.admin)
            #expect(try await app.request("/bookings/\(booking.id)/confirm", method: .post, headers: admin).status == .ok)
        }
    }

    @Test func aPhoneCodeIsSentOnlyIntoABusinessOfTheAppThatSignsInByPhone() async throws {
        try await SignInTests.withRig { rig in
            let people = People.shared(in: rig.app.env.environment)
            try await people.createOrganisationPatiently(slug: "crew", app: "field", name: "A field company")
            for slug in ["crew", "nowhere"] {
                let sent = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "+15555550123", "org_slug": "\#(slug)"}"#)
                #expect(sent.status == .notFound, "\(slug): \(sent.status) \(sent.text)")
            }
            #expect(await rig.sms.messages.isEmpty, "no text was sent")
            let sent = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "+15555550123", "org_slug": "demo"}"#)
            let texts = await rig.sms.messages.count
            #expect(sent.status == .ok && texts == 1)
        }
    }

    @Test func theAddressPhoneSignInStandsUnderCannotBeRegistered() async throws {
        try await SignInTests.withRig { rig in
            let phone = "+15555550123"
            for email in ["15555550123@phone.offleash.app", "15555550123@PHONE.offleash.APP", "1@phone.field.app"] {
                let squatted = try await AccountContractTests.register(rig.app, email: email)
                #expect(squatted.status == .unprocessableContent && squatted.errorMessage.contains("reserved"), "\(email): \(squatted.text)")
            }
            // The number's owner signs in with it.
            _ = try await rig.app.request("/auth/phone/send-code", method: .post, json: #"{"phone": "\#(phone)", "org_slug": "demo"}"#)
            let code = try #require(await rig.code(for: phone))
            let verified = try await rig.app.request("/auth/phone/verify", method: .post,
                                                     json: #"{"phone": "\#(phone)", "code": "\#(code)", "org_slug": "demo"}"#)
            #expect(verified.status == .ok, "\(verified.text)")
        }
    }
}
