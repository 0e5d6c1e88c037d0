import Foundation
@testable import MusterEvents
@testable import MusterOPL
import Testing

/// Where blocklist entries reach in the three real clients, decided by registrable domain: an
/// employer's own domains block everywhere, a page on anyone else's site only in the browser
/// extension and only that page, and a platform's root nowhere (refused at approval).
@Suite("Blocklists block the employer, never a whole platform")
struct BlocklistReachTests {
    static let rules = BlocklistRules(suffixes: PublicSuffixList.load())

    /// What a moderator might paste for Acme Diner (website acme-diner.com): the URLs of the
    /// report that found platforms blocked whole, and the employer's own sites.
    static let pages: [(typed: String, page: String)] = [
        ("https://m.facebook.com/acmediner", "https://www.facebook.com/acmediner"),
        ("https://business.facebook.com/acmediner/", "https://business.facebook.com/acmediner"),
        ("https://web.facebook.com/acmediner?ref=page_internal", "https://web.facebook.com/acmediner"),
        ("https://www.facebook.com/profile.php?id=100064123&mibextid=abc", "https://www.facebook.com/profile.php?id=100064123"),
        ("https://mobile.twitter.com/acmediner", "https://twitter.com/acmediner"),
        ("https://x.com/acmediner?s=20&t=xyz", "https://x.com/acmediner"),
        ("https://sites.google.com/view/acmediner/home", "https://sites.google.com/view/acmediner/home"),
        ("https://play.google.com/store/apps/details?id=com.acmediner.app&hl=en", "https://play.google.com/store/apps/details?id=com.acmediner.app&hl=en"),
        ("https://apps.apple.com/us/app/acme-diner/id1234567", "https://apps.apple.com/us/app/acme-diner/id1234567"),
        ("https://www.yelp.com/biz/acme-diner-rapid-city", "https://www.yelp.com/biz/acme-diner-rapid-city"),
        ("https://www.booking.com/hotel/us/acme-inn.html", "https://www.booking.com/hotel/us/acme-inn.html"),
        ("https://www.toasttab.com/acme-diner-main-st", "https://www.toasttab.com/acme-diner-main-st"),
        ("fb.com/acmediner", "https://fb.com/acmediner"),
        ("https://youtu.be/dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ"),
        ("https://www.pinterest.com/acmediner/", "https://www.pinterest.com/acmediner"),
        ("https://linktr.ee/acmediner", "https://linktr.ee/acmediner"),
        ("https://www.indeed.com/cmp/Acme-Diner", "https://www.indeed.com/cmp/Acme-Diner"),
        ("https://smile.amazon.com/stores/AcmeDiner/page/1234", "https://smile.amazon.com/stores/AcmeDiner/page/1234"),
        ("https://www.instagram.com/acmediner/", "https://instagram.com/acmediner"),
        ("https://www.tiktok.com/@acmediner", "https://www.tiktok.com/@acmediner"),
        ("https://www.linkedin.com/company/acme-diner/", "https://www.linkedin.com/company/acme-diner"),
        // The demo's pages.
        ("facebook.com/prairiefreshmarkets", "https://www.facebook.com/prairiefreshmarkets"),
        ("instagram.com/cascadecoffee", "https://www.instagram.com/cascadecoffee"),
    ]

    /// Pasted URLs that name no page on a site the employer does not own: refused at approval.
    static let roots = ["https://www.facebook.com/?id=100064123", "https://www.facebook.com/#acmediner", "facebook.com", "https://m.facebook.com/",
                        "yelp.com", "https://booking.com/", "linktr.ee", "youtu.be/", "http://github.io/acme"]

    /// Whole hosts no entry may block in any client.
    static let platforms = ["facebook.com", "www.facebook.com", "m.facebook.com", "business.facebook.com", "web.facebook.com", "twitter.com",
                            "mobile.twitter.com", "x.com", "sites.google.com", "play.google.com", "apps.apple.com", "www.yelp.com", "yelp.com",
                            "www.booking.com", "www.toasttab.com", "fb.com", "youtu.be", "www.pinterest.com", "linktr.ee", "www.indeed.com",
                            "smile.amazon.com", "amazon.com", "instagram.com", "www.tiktok.com", "www.linkedin.com", "google.com"]

    /// The employer's own sites: blocked whole, by every client.
    static let own = ["https://www.acme-diner.com/", "https://order.acme-diner.com/menu", "https://acme-diner.co.uk/", "acme-diner.github.io/jobs"]

    static func approve(_ urls: [String], website: String = "https://www.acme-diner.com", ownDomains: [String]? = nil) throws -> ActionApproved {
        let action = OPLProjection.Action(submitted: ActionSubmitted(
            actionId: "act_00000000000000a1", employer: EmployerDetails(name: "Acme Diner", website: website),
            action: ActionDetails(organization: "UNITE HERE", actionType: "strike", location: "Rapid City", startDate: "2026-11-01T00:00:00Z",
                                  durationDays: 60, description: "d"),
            submittedBy: "key_0000000000000001"), at: "2026-11-01T00:00:00Z", sequence: 1)
        return try ModerationDesk.approval(of: action, edits: ApproveEdits(urls: urls, ownDomains: ownDomains), moderator: "mod", rules: rules)
    }

    static func view(_ approved: ActionApproved...) throws -> BlocklistView {
        var state = OPLProjection.initialState
        var sequence: UInt64 = 0
        for approval in approved {
            let submitted = ActionSubmitted(actionId: approval.actionId, employer: approval.employer, action: approval.action, submittedBy: "key_0000000000000001")
            for payload in [submitted, approval] as [any EventPayload] {
                sequence += 1
                try OPLProjection.apply(RecordedEvent(sequence: sequence, subject: payload.eventType.subject(aggregateID: payload.aggregateID),
                                                      id: "e\(sequence)", source: "test", time: "2026-11-01T00:00:00Z", actor: nil, traceparent: nil,
                                                      storedType: payload.eventType, aggregateID: payload.aggregateID, payload: payload), to: &state)
            }
        }
        return BlocklistView(state: state, rules: rules, now: Date(timeIntervalSince1970: 1_794_000_000)) // 2026-11-07
    }

    struct Feeds {
        var mobile: [String], dns: [String], extensionEntries: [String]
        init(_ view: BlocklistView) {
            mobile = view.mobileData(lat: 0, lng: 0, radius: 1000, includeInactive: false, generatedAt: "").blocklist.urls.map(\.url)
            dns = view.extensionMap(includeInactive: false, pages: false).values.flatMap(\.matchingUrlRegexes)
            extensionEntries = view.extensionMap(includeInactive: false, pages: true).values.flatMap(\.matchingUrlRegexes)
        }
    }

    @Test func everyClientBlocksTheEmployerAndNoClientBlocksAPlatform() throws {
        let approved = try Self.approve(Self.pages.map(\.typed) + Self.own, ownDomains: ["acme-diner.com", "acme-diner.co.uk", "acme-diner.github.io"])
        let feeds = Feeds(try Self.view(approved))
        for host in Self.platforms {
            #expect(!OPLClients.phoneBlocks("https://\(host)/", entries: feeds.mobile), "phone apps block all of \(host)")
            #expect(!OPLClients.dnsBlocks(host, entries: feeds.dns), "DNS filter blocks \(host)")
            #expect(!OPLClients.regexMatches("https://\(host)/someone-else", entries: feeds.extensionEntries), "extension regex on \(host)")
            #expect(!OPLClients.dnrBlocks("https://\(host)/someone-else", entries: feeds.extensionEntries), "extension rule on \(host)")
            #expect(!OPLClients.dnrBlocks("https://\(host)/", entries: feeds.extensionEntries), "extension rule on \(host)/")
        }
        for (typed, page) in Self.pages {
            let below = page.contains("?") ? page + "&sk=about" : page + "/about"
            for url in [page, below] {
                #expect(OPLClients.regexMatches(url, entries: feeds.extensionEntries), "extension regex misses \(url) (\(typed))")
                #expect(OPLClients.dnrBlocks(url, entries: feeds.extensionEntries), "extension rule misses \(url) (\(typed))")
            }
        }
        for url in Self.own + ["https://acme-diner.com/anything", "https://cdn.acme-diner.com/x.js"] {
            let host = try #require(OPLClients.host(of: url.contains("://") ? url : "https://" + url))
            #expect(OPLClients.phoneBlocks("https://\(host)/", entries: feeds.mobile), "phone apps miss \(host)")
            #expect(OPLClients.dnsBlocks(host, entries: feeds.dns), "DNS filter misses \(host)")
            #expect(OPLClients.dnrBlocks("https://\(host)/x", entries: feeds.extensionEntries), "extension misses \(host)")
            #expect(OPLClients.regexMatches("https://\(host)/x", entries: feeds.extensionEntries), "extension regex misses \(host)")
        }
        // Host-matching feeds hold hosts under the employer's own domains, and nothing else.
        let registrable = Set((feeds.mobile + feeds.dns).compactMap { Self.rules.suffixes.registrableDomain(of: String($0.prefix { $0 != "/" })) })
        #expect(registrable == ["acme-diner.com", "acme-diner.co.uk", "acme-diner.github.io"])
    }

    /// The extension's filter stops at a separator; its regex cannot (README: the one over-match).
    @Test func aPageDoesNotBlockALongerNameButItsRegexStillMatchesIt() throws {
        let feeds = Feeds(try Self.view(try Self.approve(["facebook.com/acme", "facebook.com/profile.php?id=7"])))
        #expect(!OPLClients.dnrBlocks("https://www.facebook.com/acmeprobe", entries: feeds.extensionEntries))
        #expect(!OPLClients.dnrBlocks("https://www.facebook.com/acme-probe", entries: feeds.extensionEntries))
        #expect(!OPLClients.dnrBlocks("https://www.facebook.com/profile.php?id=71", entries: feeds.extensionEntries))
        #expect(!OPLClients.dnrBlocks("https://www.facebook.com/profile.php?id=8", entries: feeds.extensionEntries))
        #expect(!OPLClients.regexMatches("https://www.facebook.com/profile.php?id=8", entries: feeds.extensionEntries))
        #expect(OPLClients.dnrBlocks("https://m.facebook.com/profile.php?id=7", entries: feeds.extensionEntries))
        #expect(OPLClients.regexMatches("https://www.facebook.com/acmeprobe", entries: feeds.extensionEntries), "documented over-match")
        #expect(feeds.extensionEntries.sorted() == ["facebook\\.com/acme", "facebook\\.com/profile\\.php?id=7", "facebook\\.com/profile\\.php\\?id=7"])
    }

    @Test(arguments: roots)
    func aPlatformsRootIsRefusedWithTheReason(_ typed: String) throws {
        #expect {
            try Self.approve([typed])
        } throws: { error in
            let message = "\(error)"
            return (error as? ModerationError)?.code == .invalid && (message.contains("names only the root") || message.contains("public suffix"))
        }
    }

    @Test func ownDomainsAreRegistrableDomains() throws {
        #expect(throws: ModerationError.self) { try Self.approve(["shop.acme-diner.com"], ownDomains: ["shop.acme-diner.com"]) }
        #expect(throws: ModerationError.self) { try Self.approve(["acme.co.uk"], ownDomains: ["co.uk"]) }
        let approved = try Self.approve(["https://acme-diner.co.uk/"], ownDomains: ["https://www.Acme-Diner.co.uk/"])
        #expect(approved.ownDomains == ["acme-diner.co.uk"] && approved.urls == ["acme-diner.co.uk"])
        // No website of its own: its page on a platform is all there is.
        let pageOnly = try Self.approve(["facebook.com/acmediner"], website: "https://facebook.com/acmediner")
        #expect(pageOnly.ownDomains == [])
        // A website on a known platform does not make the platform the employer's, unless marked.
        #expect(throws: ModerationError.self) { try Self.approve(["amazon.com"], website: "https://amazon.com") }
        #expect(try Self.approve(["amazon.com"], website: "https://amazon.com", ownDomains: ["amazon.com"]).urls == ["amazon.com"])
    }

    /// Approvals from before own domains were recorded are read with today's rules.
    @Test func anOldApprovalIsReadWithTodaysRules() throws {
        var old = try Self.approve(["acme-diner.com"])
        old.urls = ["acme-diner.com", "shop.acme-diner.com", "facebook.com", "facebook.com/acmediner", "instagram.com/acmediner", "acme-diner.ca"]
        old.ownDomains = nil
        let feeds = Feeds(try Self.view(old))
        #expect(feeds.mobile == ["acme-diner.com", "shop.acme-diner.com"])
        #expect(feeds.dns.sorted() == ["acme-diner.com", "shop.acme-diner.com"])
        #expect(feeds.extensionEntries.sorted() == ["acme-diner.com", "facebook\\.com/acmediner", "instagram\\.com/acmediner", "shop.acme-diner.com"])
    }

    @Test(arguments: [
        ("https://www.Acme.com/", "acme.com"), ("http://shop.acme.com/deals?utm_source=x#top", "shop.acme.com/deals"),
        ("https://www.facebook.com/profile.php?id=7&fbclid=abc", "facebook.com/profile.php?id=7"), ("https://www.facebook.com/?id=7", "facebook.com/?id=7"),
        ("https://www.facebook.com/#acme", "facebook.com"), ("play.google.com/store/apps/details?id=com.acme&hl=en", "play.google.com/store/apps/details?id=com.acme"),
    ])
    func typedURLsKeepWhatIdentifiesAPage(_ typed: String, _ entry: String) {
        #expect(BlocklistURLs.entry(typed) == entry)
    }
}
