import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterOPL
import MusterTesting
import NIOFoundationEssentialsCompat
import Testing

/// The moderation page as a moderator uses it: in a real headless Chromium, by typing and
/// clicking, with the result checked through the API and the log. Screenshots of each page are
/// kept in `.build/test-output/screenshots/moderation-approve/`.
@Suite("The moderation page in a real browser")
struct ModerationBrowserTests {
    /// Every field a moderator fills in has a name a screen reader can say.
    func expectLabelled(_ browser: Browser, _ page: String) async throws {
        let unlabelled = try await browser.unlabelledFields()
        #expect(unlabelled.isEmpty, "fields of the \(page) page without a label: \(unlabelled)")
    }

    @Test(.enabled(if: Browser.available, "needs Debian's chromium and chromium-driver (make test installs them)"))
    func aModeratorSignsInFindsTheActionAndApprovesItByClicking() async throws {
        try await apps.withTestApp(live: true) { app in
            let port = try #require(app.client.port)
            let moderator = try await app.key([OPLScopes.moderate])
            let submitter = try await app.key([OPLScopes.submitStrike])
            let submitted = try await app.request("/api/mobile/submit-strike", method: .post, key: submitter, json: ModerationTests.submission)
            let id = try Client.decode(Client.Submitted.self, Data(buffer: submitted.body)).id

            try await Browser.with("moderation-approve") { browser in
                try await browser.open("http://127.0.0.1:\(port)/moderation")
                try await browser.keep("sign-in")
                try await expectLabelled(browser, "sign-in")
                try await browser.type(moderator, into: "input[name=key]")
                try await browser.click("form:has(input[name=key]) button")
                // The queue: the submission is there once its checks ran; a reload shows it.
                try await eventually("the action in the queue", timeout: .seconds(30)) {
                    if (try? await browser.find("a[href='/moderation/actions/\(id)']", timeout: .milliseconds(300))) != nil { return true }
                    try await browser.open("http://127.0.0.1:\(port)/moderation")
                    return false
                }
                #expect(try await browser.text().contains("Moderation queue"))
                try await browser.keep("queue")
                try await expectLabelled(browser, "queue")
                try await browser.click("a[href='/moderation/actions/\(id)']")
                #expect(try await browser.text("h1").isEmpty == false)
                try await browser.keep("action")
                try await expectLabelled(browser, "action")
                let reason = "form[action$='/approve'] input[name=reason]"
                try await browser.type(" (called the local)", into: reason)
                try await browser.click("form[action$='/approve'] fieldset > button:last-of-type")
                try await eventually("the approval's page", timeout: .seconds(15)) { try await browser.url().hasSuffix("?done=approve") }
                try await browser.waitFor(text: "Done: approve")
                try await browser.keep("approved")
                try await expectLabelled(browser, "approved")
            }

            let status = try await app.request("/api/moderation/actions/\(id)", key: moderator).json["status"] as? String
            #expect(status == "approved")
            let approved = try #require(try await app.log.read(filter: "events.opl.action.\(id).approved.v1").first?.payload as? ActionApproved)
            #expect(approved.reason == "verified (called the local)", "what was typed in the form")
        }
    }
}
