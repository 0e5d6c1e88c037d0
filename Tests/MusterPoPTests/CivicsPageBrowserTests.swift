import Foundation
import HummingbirdTesting
import MusterAppTesting
import MusterPlatform
import MusterTesting
import Testing

/// The organisers' page as an organiser uses it, in a real headless Chromium: sign in by typing
/// the email and password, read the page, sign out. Screenshots in
/// `.build/test-output/screenshots/civics-organiser/`.
@Suite("PoP's organisers' page in a real browser")
struct CivicsPageBrowserTests {
    @Test(.enabled(if: Browser.available, "needs Debian's chromium and chromium-driver (make test installs them)"))
    func anOrganiserSignsInReadsTheirOrganisationAndSignsOut() async throws {
        try await apps.withTestApp(live: true) { app in
            let port = try #require(app.client.port)
            let people = People.shared(in: app.env.environment)
            _ = try await people.createOrganisationPatiently(slug: "pop-sd", app: "pop", name: "People Over Party")
            _ = try await people.addPerson(People.Registration(orgSlug: "pop-sd", email: "olive@example.com", firstName: "Olive", lastName: "O",
                                                               phone: nil, password: "Organise2026", role: "organiser"))
            try await Browser.with("civics-organiser") { browser in
                try await browser.open("http://127.0.0.1:\(port)/pop/civics")
                #expect(try await browser.unlabelledFields().isEmpty)
                try await browser.keep("sign-in")
                try await browser.type("olive@example.com", into: "input[name=email]")
                try await browser.type("wrong", into: "input[name=password]")
                try await browser.click("form:has(input[name=email]) button")
                try await browser.waitFor(text: "Wrong email or password")
                try await browser.keep("wrong-password")
                try await browser.type("olive@example.com", into: "input[name=email]")
                try await browser.type("Organise2026", into: "input[name=password]")
                try await browser.click("form:has(input[name=email]) button")
                try await browser.waitFor(text: "Hardest questions")
                #expect(try await browser.unlabelledFields().isEmpty)
                try await browser.keep("progress")
                try await browser.click("form[action='/pop/civics/logout'] button")
                _ = try await browser.find("input[name=password]") // the sign-in form again
                try await browser.keep("signed-out")
            }
        }
    }
}
