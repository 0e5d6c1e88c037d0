import MusterEvents

/// Text made safe for HTML element content and quoted attribute values.
package func escapeHTML(_ text: some StringProtocol) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        case "\r\n": out += "\n"
        // Control characters (stored before input refused them) show as U+FFFD, never raw.
        case _ where character.unicodeScalars.contains(where: { ControlCharacters.isControl($0.value) }):
            out += "\u{FFFD}"
        default: out.append(character)
        }
    }
    return out
}

/// Text as a page shows it: control characters (stored before input refused them) as U+FFFD, so a
/// template's escaping, which leaves them, never writes them raw.
package func visibleText(_ text: some StringProtocol) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { ControlCharacters.isControl($0.value) ? "\u{FFFD}" : $0 }))
}

/// Builds a whole self-contained page by appending escaped text and trusted markup (only `raw`
/// takes markup), for the few public pages outside any group: a link's landing page, a newsletter
/// or unsubscribe confirmation. The consoles' pages are templates (`PageTemplates`).
package struct HTMLPage: Sendable {
    package let title: String
    let style: String
    package private(set) var html = ""

    package init(title: String, style: String = "") {
        self.title = title
        self.style = style
    }

    package mutating func raw(_ markup: String) { html += markup }
    package mutating func text(_ text: some StringProtocol) { html += escapeHTML(text) }

    /// A whole document with its style inline (served with `HTMLResponse.standalonePolicy`).
    package func finish() -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>\(escapeHTML(title))</title><style>
        body{font:15px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}
        .flag{display:inline-block;background:#fde2e2;color:#8a1c1c;border-radius:3px;padding:0 .4em}.ok{background:#e2f5e2;color:#1c5a1c}
        .muted{color:#777}\(style)</style></head><body>\(html)</body></html>
        """
    }
}
