import Foundation

/// How the three real OPL clients match blocklist entries, re-implemented from the contract
/// (`../shared/contracts/opl-api.md`, "How each client matches blocklist entries"), so tests can
/// ask what each would block.
enum OPLClients {
    /// The iOS and Android apps (`/api/mobile/data`): an entry is reduced to its host (what
    /// follows the first `/` is ignored, a leading `www.` stripped); a URL is blocked when its
    /// host is that host or ends with `.` + it.
    static func phoneBlocks(_ url: String, entries: [String]) -> Bool {
        guard let host = host(of: url) else { return false }
        return entries.contains { entry in
            var blocked = String(entry.prefix { $0 != "/" })
            if blocked.hasPrefix("www.") { blocked.removeFirst(4) }
            return host == blocked || host.hasSuffix("." + blocked)
        }
    }

    /// The DNS filter (`/api/blocklist.json` without `format`): every entry reduced to its host
    /// in a domain map; a name is blocked when it or any parent name is in the map.
    static func dnsBlocks(_ name: String, entries: [String]) -> Bool {
        let map = Set(entries.map { String($0.prefix { $0 != "/" }) })
        var labels = name.lowercased().split(separator: ".")
        while !labels.isEmpty {
            if map.contains(labels.joined(separator: ".")) { return true }
            labels.removeFirst()
        }
        return false
    }

    /// The browser extension's first use: the entry as a case-insensitive JavaScript regular
    /// expression, tested anywhere in the whole URL (an entry that is no valid regex is skipped).
    static func regexMatches(_ url: String, entries: [String]) -> Bool {
        entries.contains { entry in
            guard let regex = try? NSRegularExpression(pattern: entry, options: [.caseInsensitive]) else { return false }
            return regex.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
        }
    }

    /// The extension's second use: the declarativeNetRequest rule `||<entry>^` after `\.` → `.`.
    static func dnrBlocks(_ url: String, entries: [String]) -> Bool {
        entries.contains { DNRFilter("||" + $0.replacingOccurrences(of: "\\.", with: ".") + "^").matches(url) }
    }
}

/// A declarativeNetRequest `urlFilter`, as Chrome documents it: `||` anchors at the host or any
/// subdomain of it, `|` at either end of the URL, `*` is any run of characters, `^` a separator
/// (anything but a letter, digit, `_`, `-`, `.` or `%`) or the URL's end; the rest is literal,
/// compared without case.
struct DNRFilter {
    var pattern: [Character]
    var domainAnchor = false, startAnchor = false, endAnchor = false

    init(_ filter: String) {
        var text = Substring(filter.lowercased())
        if text.hasPrefix("||") { domainAnchor = true; text = text.dropFirst(2) }
        else if text.hasPrefix("|") { startAnchor = true; text = text.dropFirst() }
        if text.hasSuffix("|") { endAnchor = true; text = text.dropLast() }
        pattern = Array(text)
    }

    func matches(_ url: String) -> Bool {
        let url = Array(url.lowercased())
        let starts: [Int]
        if domainAnchor {
            // After the scheme's `://`: the host's start and every label start within the host.
            guard let scheme = String(url).range(of: "://") else { return false }
            let hostStart = String(url).distance(from: String(url).startIndex, to: scheme.upperBound)
            let hostEnd = url[hostStart...].firstIndex { "/?#:".contains($0) } ?? url.count
            starts = [hostStart] + (hostStart..<hostEnd).filter { url[$0] == "." }.map { $0 + 1 }
        } else if startAnchor {
            starts = [0]
        } else {
            starts = Array(0...url.count)
        }
        return starts.contains { match(url, $0, 0) }
    }

    private static func isSeparator(_ c: Character) -> Bool {
        !(c.isLetter || c.isNumber || "_-.%".contains(c))
    }

    private func match(_ url: [Character], _ u: Int, _ p: Int) -> Bool {
        if p == pattern.count { return !endAnchor || u == url.count }
        switch pattern[p] {
        case "*":
            return (u...url.count).contains { match(url, $0, p + 1) }
        case "^":
            if u == url.count { return match(url, u, p + 1) }
            return Self.isSeparator(url[u]) && match(url, u + 1, p + 1)
        default:
            return u < url.count && url[u] == pattern[p] && match(url, u + 1, p + 1)
        }
    }
}

extension OPLClients {
    /// The host of a URL, lowercased, without port.
    static func host(of url: String) -> String? {
        URLComponents(string: url)?.host?.lowercased()
    }
}
