import Foundation

/// Turning what people type ("https://www.Acme.com/", "facebook.com/profile.php?id=7&fbclid=…")
/// into blocklist entries: plain `host[/path][?query]`, lowercase host, no scheme, no `www.`, no
/// trailing slash, no fragment, and a query only with what identifies a page (tracking
/// parameters dropped). Whether an entry blocks a whole host or one page is `BlocklistRules`'s call.
package enum BlocklistURLs {
    /// Characters that mean a regular expression (the extension reads entries as one) or that
    /// no client could match literally: refused rather than guessed at.
    static let refused: Set<Character> = ["^", "$", "\\", "*", "(", ")", "[", "]", "|", "+", "{", "}", " ", "\"", "<", ">", "`"]

    /// Query parameters that follow a link around or choose a language, rather than name a page
    /// (kept, they would make the page's filter miss every visit without them).
    static let tracking: Set<String> = ["fbclid", "gclid", "dclid", "msclkid", "igshid", "igsh", "mibextid", "si", "ref", "ref_src",
                                        "ref_url", "_rdr", "hc_ref", "__tn__", "__cft__", "feature", "share", "s", "t", "hl", "gl", "lang", "locale"]

    /// The entry for `text`, or nil when no host can be read from it.
    package static func entry(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.contains(where: refused.contains) else { return nil }
        var rest = Substring(trimmed)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "#" }
        let query = rest.firstIndex(of: "?").map { String(rest[rest.index(after: $0)...]) } ?? ""
        rest = rest.prefix { $0 != "?" }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var host = rest[..<slash].lowercased()
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) } // user@host
        if let colon = host.firstIndex(of: ":") { host = String(host[..<colon]) } // :port
        if host.hasPrefix("www.") { host.removeFirst(4) }
        while host.hasSuffix(".") { host.removeLast() }
        var path = String(rest[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        let kept = identifying(query)
        if path.isEmpty, !kept.isEmpty { path = "/" } // `facebook.com/?id=1`: the slash keeps it a host/path entry
        let entry = host + path + (kept.isEmpty ? "" : "?" + kept)
        return (try? OPLValidate.hostPath(entry, field: "")) != nil ? entry : nil
    }

    /// The host of a URL or entry, without `www.`.
    package static func host(of text: String) -> String? {
        entry(text).map { String($0.prefix { $0 != "/" && $0 != "?" }) }
    }

    /// An entry's parts: host, path (`""` or `/…`), query (`""` or without its `?`).
    static func parts(of entry: String) -> (host: String, path: String, query: String) {
        let end = entry.firstIndex { $0 == "/" || $0 == "?" } ?? entry.endIndex
        let rest = entry[end...]
        let question = rest.firstIndex(of: "?")
        return (String(entry[..<end]), String(rest[..<(question ?? rest.endIndex)]),
                question.map { String(rest[rest.index(after: $0)...]) } ?? "")
    }

    /// The query's parameters that may identify a page, in their order.
    static func identifying(_ query: String) -> String {
        query.split(separator: "&").filter { parameter in
            let name = parameter.prefix { $0 != "=" }.lowercased()
            return !name.isEmpty && !name.hasPrefix("utm_") && !tracking.contains(name)
        }.joined(separator: "&")
    }
}
