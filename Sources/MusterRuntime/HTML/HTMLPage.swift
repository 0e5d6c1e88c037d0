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

/// Builds a page by appending escaped text and trusted markup; only `raw` takes markup.
/// Pages are self-contained (no scripts, no external styles), so they can be served with
/// `Content-Security-Policy: default-src 'none'`.
package struct HTMLPage: Sendable {
    package private(set) var html = ""

    package init(title: String, style: String = "") {
        html = """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>\(escapeHTML(title))</title><style>
        body{font:15px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}
        table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.35em .5em;text-align:left;vertical-align:top}
        .flag{display:inline-block;background:#fde2e2;color:#8a1c1c;border-radius:3px;padding:0 .4em;margin:0 .2em .2em 0;font-size:85%}
        .ok{background:#e2f5e2;color:#1c5a1c}.muted{color:#777}form.inline{display:inline}fieldset{margin:1em 0;border:1px solid #ccc}
        textarea,input[type=text]{width:100%;box-sizing:border-box}dt{font-weight:600}dd{margin:0 0 .5em 0;white-space:pre-wrap}
        \(style)</style></head><body>
        """
    }

    package mutating func raw(_ markup: String) { html += markup }
    package mutating func text(_ text: some StringProtocol) { html += escapeHTML(text) }

    package mutating func finish() -> String {
        html += "</body></html>"
        return html
    }
}
