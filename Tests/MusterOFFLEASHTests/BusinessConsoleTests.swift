import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterLog
import MusterPlatform
import MusterRuntime
import MusterStandIns
import MusterTesting
import Testing

/// The business console at `/offleash`: the owner's admin answers requests, sees every walker's
/// day and week, refunds a payment through the Stripe stand-in, prices services and sees the
/// walkers and customers; walkers, customers and other businesses get nothing of it.
@Suite("OFFLEASH business console")
struct BusinessConsoleTests {
    /// Two requests for the org's walker on Monday (10:00 and 11:00), the second paid by card after
    /// the walker confirms it; the checkout's id.
    static func requestsAndAPayment(_ app: TestApp, _ org: WalksContractTests.Org) async throws -> (first: String, second: String, paid: String) {
        let customer = AccountContractTests.bearer(org.customer)
        var ids: [String] = []
        for hour in ["10", "11"] {
            let booked = try await app.request("/bookings", method: .post, headers: customer, json: """
            {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(org.monday)T\(hour):00:00Z"}
            """)
            #expect(booked.status == .created, "\(booked.text)")
            ids.append(try WalksContractTests.decode(ContractBooking.self, booked).id)
        }
        let card = try WalksContractTests.decode(ContractCard.self, try await app.request("/payment-methods", method: .post, headers: customer,
                                                                                         json: PaymentsTests.card("4242")))
        let checkout = try WalksContractTests.decode(ContractCheckout.self, try await app.request("/checkout", method: .post, headers: customer, json: """
        {"booking_id": "\(ids[1])", "payment_method_id": "\(card.id)", "subtotal_cents": 2500, "provider_user_id": "\(org.walkers[0])"}
        """))
        let paid = try await app.request("/checkout/\(checkout.transactionId)/confirm", method: .post, headers: customer,
                                         json: #"{"payment_method_id": "\#(card.id)"}"#)
        #expect(paid.status == .ok, "\(paid.text)")
        return (ids[0], ids[1], checkout.transactionId)
    }

    static func signIn(_ browser: PageVisit, email: String = "boss@example.com", org: String = "demo") async throws -> TestResponse {
        _ = try await browser.get("/offleash")
        return try await browser.post("/offleash/login", [("org", org), ("email", email), ("password", "Walkies2026")])
    }

    @Test func theOwnersAdminAnswersRequestsRefundsAndPricesThroughTheForms() async throws {
        try await PaymentsTests.withPayingOrg { app, org, ledger in
            let (first, second, paid) = try await Self.requestsAndAPayment(app, org)
            // Walkers and customers are refused the console.
            #expect(try await Self.signIn(PageVisit(app), email: "walker0@example.com").text.contains("may not use these pages"))
            let browser = PageVisit(app)
            #expect(try await Self.signIn(browser).status == .seeOther)

            let today = try await browser.get("/offleash?day=\(org.monday)")
            #expect(today.status == .ok && today.text.contains("/offleash/bookings/\(first)/decline") && today.text.contains("walker0 X"))
            #expect(try await browser.post("/offleash/bookings/\(first)/decline", token: false).status == .forbidden)
            #expect(try await browser.post("/offleash/bookings/\(first)/decline").status == .seeOther)
            let declined = try WalksContractTests.decode([ContractBooking].self, try await app.request("/bookings/customer", headers: AccountContractTests.bearer(org.customer)))
            #expect(declined.first { $0.id == first }?.status == "cancelled", "the app sees the decline as the walker's own would be")
            #expect(try await browser.post("/offleash/bookings/\(second)/accept").status == .seeOther)
            #expect(try await browser.get("/offleash?day=\(org.monday)").text.contains("None: every request has an answer"))
            let week = try await browser.get("/offleash/week?from=\(org.monday)").text
            #expect(week.contains("confirmed") && week.contains("walker0 X") && week.contains("–") && week.contains(org.monday), "\(week)")

            let payments = try await browser.get("/offleash/payments")
            #expect(payments.text.contains("/offleash/payments/\(paid)/refund"))
            let refunded = try await browser.post("/offleash/payments/\(paid)/refund")
            #expect(refunded.status == .seeOther, "\(refunded.text)")
            #expect(await ledger.refunds.values.reduce(0, +) > 0, "the refund reached the provider")
            #expect(try await browser.post("/offleash/payments/\(paid)/refund").status == .unprocessableContent, "once")

            #expect(try await browser.post("/offleash/services", [("name", "Hour walk"), ("minutes", "60"), ("price", "40.00"), ("active", "on")]).status == .seeOther)
            let services = try await browser.get("/offleash/services")
            #expect(services.text.contains("Hour walk") && services.text.contains("40.00"))
            #expect(try await browser.post("/offleash/services", [("name", "Bad"), ("minutes", "2"), ("price", "x")]).status == .unprocessableContent)
            let people = try await browser.get("/offleash/people")
            #expect(people.text.contains("walker0 X") && people.text.contains("cust@example.com"))
            let invite = try await browser.post("/offleash/walkers/invite", [("email", "new.walker@example.com")])
            #expect(invite.status == .unprocessableContent && invite.text.contains("not configured"), "no mail service in this test: said plainly")

            // Another business's admin: this business's walks and payments are 404.
            let peopleDirectory = People.shared(in: app.env.environment)
            try await peopleDirectory.createOrganisationPatiently(slug: "other", app: "offleash", name: "Other walks")
            _ = try await peopleDirectory.addPerson(People.Registration(orgSlug: "other", email: "rival@example.com", firstName: "Rival", lastName: "R",
                                                                       phone: nil, password: "Walkies2026", role: "admin"))
            let rival = PageVisit(app)
            #expect(try await Self.signIn(rival, email: "rival@example.com", org: "other").status == .seeOther)
            _ = try await rival.get("/offleash")
            #expect(try await rival.post("/offleash/bookings/\(second)/decline").status == .notFound)
            #expect(try await rival.post("/offleash/payments/\(paid)/refund").status == .notFound)
            #expect(!(try await rival.get("/offleash/payments").text.contains(paid)))
        }
    }

    /// Walkers are invited from the console through the app's invitations; the page lists those
    /// waiting (their role and expiry: the address is kept only as a keyed hash).
    @Test func anAdminInvitesAWalkerAndSeesTheInvitationWaiting() async throws {
        let recorder = SMSStandIn.Recorder()
        try await Application(router: SMSStandIn.router(recorder: recorder)).test(.live) { standIn in
            let port = try #require(standIn.port)
            try await WalksContractTests.withOrg(walkers: 1, configure: {
                $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(port)"
                $0[InvitationSettings.self].mailKey = "SG.test"
            }) { app, _ in
                let browser = PageVisit(app)
                #expect(try await Self.signIn(browser).status == .seeOther)
                #expect(try await browser.get("/offleash/people").text.contains("Invitations waiting to be used"))
                let sent = try await browser.post("/offleash/walkers/invite", [("email", "new.walker@example.com")])
                #expect(sent.status == .seeOther, "\(sent.text.prefix(300))")
                #expect(await recorder.messages.contains { $0.to == "new.walker@example.com" && $0.body.contains("walk dogs for") })
                let people = try await browser.get("/offleash/people")
                #expect(people.text.contains("a walker, until") && !people.text.contains("new.walker@example.com"))
            }
        }
    }

    /// Every field an admin fills in has a name a screen reader can say.
    func expectLabelled(_ browser: Browser, _ page: String) async throws {
        let unlabelled = try await browser.unlabelledFields()
        #expect(unlabelled.isEmpty, "fields of the \(page) page without a label: \(unlabelled)")
    }

    @Test(.enabled(if: Browser.available, "needs Debian's chromium and chromium-driver (make test installs them)"))
    func anOwnerDeclinesARequestAndRefundsAPaymentByClicking() async throws {
        try await PaymentsTests.withPayingOrg(live: true) { app, org, ledger in
            let port = try #require(app.client.port)
            let (first, _, paid) = try await Self.requestsAndAPayment(app, org)
            try await Browser.with("offleash-console") { browser in
                try await browser.open("http://127.0.0.1:\(port)/offleash")
                try await browser.keep("sign-in")
                try await expectLabelled(browser, "sign-in")
                try await browser.type("demo", into: "#signin-org")
                try await browser.type("boss@example.com", into: "#signin-email")
                try await browser.type("Walkies2026", into: "#signin-password")
                try await browser.click("form[action='/offleash/login'] button")
                try await browser.waitFor(text: "Requests waiting for an answer")
                try await browser.keep("requests")
                try await browser.click("form[action='/offleash/bookings/\(first)/decline'] button")
                try await browser.waitFor(text: "Declined the request")
                try await browser.keep("declined")
                try await browser.click("a[href='/offleash/week']")
                try await browser.waitFor(text: "Week before")
                try await browser.keep("week")
                try await browser.click("a[href='/offleash/payments']")
                try await browser.waitFor(text: "succeeded")
                try await browser.keep("payments")
                try await browser.click("form[action='/offleash/payments/\(paid)/refund'] button")
                try await browser.waitFor(text: "Refunded $")
                try await browser.keep("refunded")
                try await browser.click("a[href='/offleash/services']")
                try await browser.waitFor(text: "A new service")
                try await expectLabelled(browser, "services")
                try await browser.keep("services")
                try await browser.click("a[href='/offleash/people']")
                try await browser.waitFor(text: "Customers and their pets")
                try await expectLabelled(browser, "people")
                try await browser.keep("people")
            }
            let transactions = try await app.log.read(filter: "events.offleash.payment.\(paid).settled.v1")
            #expect(transactions.count == 2, "paid, then refunded")
            #expect(await ledger.refunds.values.reduce(0, +) > 0)
        }
    }
}
