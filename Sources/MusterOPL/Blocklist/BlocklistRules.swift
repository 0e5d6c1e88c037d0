/// What one blocklist entry makes each OPL client block, decided by registrable domain.
///
/// The phone apps and the DNS filter match by host alone (a host and all its subdomains), so an
/// entry reaches them only when its registrable domain is the employer's own (`acme.com`,
/// `shop.acme.co.uk`). Any other URL is a page on someone else's site (a platform, known or not)
/// and goes to the browser extension alone, as patterns that match that page and its sub-pages.
/// A URL that names no page there (`facebook.com`, `facebook.com/?id=1`) blocks nothing.
///
/// Applied when the views are built, not stored in the fold: approvals already in the log are
/// read with today's rules, and a change of rules needs no rewrite of the log.
package struct BlocklistRules: Sendable {
    package let suffixes: PublicSuffixList

    package init(suffixes: PublicSuffixList) { self.suffixes = suffixes }

    /// Where one entry reaches.
    package enum Reach: Sendable, Equatable {
        /// Every client blocks this host and its subdomains.
        case host(String)
        /// Only the browser extension, and only this page (`host/path[?query]`) and its sub-pages.
        case page(String)
        /// No client: why.
        case nothing(String)
    }

    /// Platforms people often give as an employer's "website" when the employer only has a page
    /// there. Never how entries are decided (that is the registrable domain); only a guard: a
    /// website on one of these does not make the platform the employer's own unless a moderator
    /// says so, and the moderation checks flag it.
    package static let knownPlatforms: Set<String> = [
        "facebook.com", "fb.com", "instagram.com", "twitter.com", "x.com", "linkedin.com", "youtube.com", "youtu.be", "tiktok.com",
        "reddit.com", "medium.com", "github.com", "threads.net", "bsky.app", "amazon.com", "etsy.com", "ebay.com", "google.com",
        "apple.com", "yelp.com", "linktr.ee", "pinterest.com", "indeed.com", "booking.com", "toasttab.com", "square.site",
    ]

    /// Host prefixes that name the same pages as the bare host (`m.facebook.com/acme` is
    /// `facebook.com/acme`): left off page entries so one pattern covers them all.
    static let samePagePrefixes = ["www.", "m.", "mobile.", "web.", "touch."]

    /// Where `entry` (as stored, or as typed) reaches when the employer owns `own` (registrable domains).
    package func reach(of text: String, own: Set<String>) -> Reach {
        guard let entry = BlocklistURLs.entry(text) else {
            return .nothing("cannot read a web address from \(text.prefix(100)) (no spaces, and none of ^ $ \\ * ( ) [ ] | + { })")
        }
        let (host, path, query) = BlocklistURLs.parts(of: entry)
        if host.split(separator: ".").allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            return .nothing("\(host) is an IP address, not a web site")
        }
        guard let domain = suffixes.registrableDomain(of: host) else {
            return .nothing("\(host) is a public suffix: everyone who registers a name under it shares it")
        }
        if own.contains(domain) { return .host(host) }
        guard path != "", path != "/" else {
            return .nothing("\(entry) names only the root of \(domain), a site the employer does not own: give the employer's page "
                + "on it (like \(domain)/employer-name), or mark \(domain) as the employer's own domain")
        }
        var pageHost = Substring(host)
        for prefix in Self.samePagePrefixes where pageHost.hasPrefix(prefix) && pageHost.count - prefix.count >= domain.count {
            pageHost = pageHost.dropFirst(prefix.count)
            break
        }
        return .page(pageHost + path + (query.isEmpty ? "" : "?" + query))
    }

    /// The registrable domain of an employer's website when it names a site of its own: a site's
    /// root (`https://www.acme.com/`), not a page on one (`facebook.com/acme`), and not a known
    /// platform.
    package func ownDomain(ofWebsite website: String) -> String? {
        guard let entry = BlocklistURLs.entry(website) else { return nil }
        let (host, path, _) = BlocklistURLs.parts(of: entry)
        guard path.isEmpty, let domain = suffixes.registrableDomain(of: host), !Self.knownPlatforms.contains(domain) else { return nil }
        return domain
    }

    /// An approval's own domains: those it records, or (approvals from before they were
    /// recorded) the one its website names.
    package func ownDomains(recorded: [String]?, website: String?) -> Set<String> {
        if let recorded { return Set(recorded) }
        return Set(website.flatMap(ownDomain(ofWebsite:)).map { [$0] } ?? [])
    }

    /// Why `domain` cannot be marked as an employer's own, or nil.
    package func ownDomainProblem(_ domain: String) -> String? {
        guard let registrable = suffixes.registrableDomain(of: domain) else {
            return "\(domain.prefix(100)) is not a domain someone can own (a public suffix, or no domain at all)"
        }
        return registrable == domain ? nil : "\(domain) is not a registrable domain: mark \(registrable)"
    }
}
