import Foundation

/// Turning what people type ("https://www.Acme.com/", "acme.com/shop") into blocklist entries:
/// plain lowercase `host[/path]`, no scheme, no `www.`, no trailing slash, no query.
public enum BlocklistURLs {
    /// The entry for `text`, or nil when no host can be read from it.
    public static func entry(_ text: String) -> String? {
        // Regex syntax means someone wrote a pattern; the clients need plain strings, so refuse
        // rather than guess (the DNS filter turns `acme\.com` into garbage).
        guard !text.contains(where: { "^$\\*()[]|+{}".contains($0) }) else { return nil }
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "?" && $0 != "#" }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var host = rest[..<slash].lowercased()
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) } // user@host
        if let colon = host.firstIndex(of: ":") { host = String(host[..<colon]) } // :port
        if host.hasPrefix("www.") { host.removeFirst(4) }
        while host.hasSuffix(".") { host.removeLast() }
        var path = String(rest[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        let entry = host + path
        return (try? OPLValidate.hostPath(entry, field: "")) != nil ? entry : nil
    }

    /// The host of a URL or entry, without `www.`.
    public static func host(of text: String) -> String? {
        entry(text).map { String($0.prefix { $0 != "/" }) }
    }
}
