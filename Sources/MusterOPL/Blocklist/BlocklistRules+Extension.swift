extension BlocklistRules {
    /// The browser extension's entries for one page (`facebook.com/acme`,
    /// `facebook.com/profile.php?id=7`).
    ///
    /// The extension uses every entry twice: as a case-insensitive regular expression tested
    /// anywhere in the whole URL, and as the declarativeNetRequest filter `||<entry>^` with `\.`
    /// turned back into `.`. Dots are escaped (the regex then wants a real dot; the filter gets
    /// it back). The filter ends in `^`, a separator or the URL's end, so `||facebook.com/acme^`
    /// takes `/acme`, `/acme/…` and `/acme?…` on every subdomain and never `/acmeprobe`. The
    /// regex has no way to say the same with characters the filter reads literally, so it also
    /// matches `/acmeprobe`: the one over-match left (docs/apps/opl.md, "How the OPL blocklists match").
    ///
    /// A `?` is a quantifier to the regex and a literal to the filter, so a page with a query
    /// has two entries: `…php\?id=7` for the regex (its filter holds a backslash, which no URL
    /// does, so it matches nothing) and `…php?id=7` for the filter (its regex wants
    /// `…phpid=7` or `…phid=7`, which no page is).
    package static func extensionEntries(page: String) -> [String] {
        let filter = escaping(page, ["."])
        guard page.contains("?") else { return [filter] }
        return [escaping(page, [".", "?"]), filter]
    }

    static func escaping(_ text: String, _ special: Set<Character>) -> String {
        var escaped = ""
        for character in text {
            if special.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
