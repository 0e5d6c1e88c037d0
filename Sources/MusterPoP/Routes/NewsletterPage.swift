import MusterRuntime

/// The unsubscribe pages: a confirmation with one button, and the answer.
enum NewsletterPage {
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
        var page = HTMLPage(title: "Not unsubscribed")
        page.raw("<h1>Not unsubscribed</h1><p class=\"flag\">")
        page.text(message)
        page.raw("</p>")
        return page.finish()
    }
}
