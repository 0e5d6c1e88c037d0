import MusterRuntime

extension ModerationPage {
    /// What a moderator is about to approve: blocklist entries and the employer's own domains,
    /// as typed in a preview, else as the action has them (or would by default).
    struct BlocklistDraft: Sendable, Equatable {
        var urls: [String]
        var ownDomains: [String]

        static func current(_ a: OPLProjection.Action, rules: BlocklistRules) -> BlocklistDraft {
            let approved = a.status == .approved || a.status == .ended
            let urls = approved ? a.urls : (a.employer.website.flatMap(BlocklistURLs.entry).map { [$0] } ?? [])
            let own = approved ? rules.ownDomains(recorded: a.ownDomains, website: a.employer.website)
                : rules.ownDomains(recorded: nil, website: a.employer.website)
            return BlocklistDraft(urls: urls, ownDomains: own.sorted())
        }
    }

    /// One row per entry: what the phone apps and the DNS filter block, and what the browser
    /// extension blocks, with the rules the feeds will apply.
    static func blocklistPreview(_ draft: BlocklistDraft, rules: BlocklistRules, into page: inout HTMLPage) {
        page.raw("<h3>What each client will block</h3>")
        if draft.urls.isEmpty { page.raw("<p class=\"muted\">No blocklist entries: no client blocks anything for this action.</p>"); return }
        page.raw("<p class=\"muted\">Employer's own domains: ")
        page.text(draft.ownDomains.isEmpty ? "none" : draft.ownDomains.joined(separator: ", "))
        page.raw("</p><table class=\"preview\"><tr><th>Entry</th><th>Phone apps and DNS filter</th><th>Browser extension</th></tr>")
        for url in draft.urls {
            page.raw("<tr><td>")
            page.text(url)
            switch rules.reach(of: url, own: Set(draft.ownDomains)) {
            case .host(let host):
                page.raw("</td><td class=\"reach-host\">all of <b>")
                page.text(host)
                page.raw("</b> and its subdomains</td><td>the same: all of ")
                page.text(host)
            case .page(let entry):
                page.raw("</td><td class=\"reach-none\">nothing (a page on a site the employer does not own)</td><td class=\"reach-page\">only the page <b>")
                page.text(entry)
                page.raw("</b> and its sub-pages, on every subdomain; entries ")
                page.text(BlocklistRules.extensionEntries(page: entry).joined(separator: "  "))
            case .nothing(let why):
                page.raw("</td><td colspan=\"2\" class=\"flag reach-refused\">refused at approval: ")
                page.text(why)
            }
            page.raw("</td></tr>")
        }
        page.raw("</table>")
    }
}
