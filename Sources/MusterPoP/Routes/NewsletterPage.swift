import MusterRuntime

/// The newsletter's pages: confirming a signup (one button, then the answer) and unsubscribing
/// (a confirmation with one button, and the answer). A GET shows a button and changes nothing.
enum NewsletterPage {
    static func confirmSignup(token: String) -> String {
        var page = HTMLPage(title: "Confirm your signup")
        page.raw("<h1>Confirm your newsletter signup</h1>")
        page.raw("<form method=\"post\" action=\"/pop/newsletter/confirm?token=\(escapeHTML(token.prefix(128)))\">")
        page.raw("<button>Yes, send me the newsletter</button></form>")
        return page.finish()
    }

    static func confirmed(org: String) -> String {
        var page = HTMLPage(title: "Confirmed")
        page.raw("<h1>Thank you</h1><p>")
        page.text(org)
        page.raw(" will send you its newsletter. Every one has a link to stop it.</p>")
        return page.finish()
    }

    static func confirm(token: String) -> String {
        var page = HTMLPage(title: "Unsubscribe")
        page.raw("<h1>Unsubscribe from the newsletter</h1>")
        page.raw("<p>Your name and email will be erased; you can sign up again in the app at any time.</p>")
        page.raw("<form method=\"post\" action=\"/pop/unsubscribe?token=\(escapeHTML(token.prefix(128)))\">")
        page.raw("<button>Unsubscribe and erase my details</button></form>")
        return page.finish()
    }

    static func done(org: String) -> String {
        var page = HTMLPage(title: "Unsubscribed")
        page.raw("<h1>You are unsubscribed</h1><p>")
        page.text(org)
        page.raw(" will send you no more newsletters, and your name and email are erased.</p>")
        return page.finish()
    }

    static func failed(_ message: String) -> String {
        var page = HTMLPage(title: "That did not work")
        page.raw("<h1>That did not work</h1><p class=\"flag\">")
        page.text(message)
        page.raw("</p>")
        return page.finish()
    }
}
