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
    static func preview(_ draft: BlocklistDraft, rules: BlocklistRules) -> Preview {
        let own = Set(draft.ownDomains)
        let rows = draft.urls.map { url -> PreviewRow in
            switch rules.reach(of: url, own: own) {
            case .host(let host):
                PreviewRow(entry: visibleText(url), reachHost: host, reachPage: nil, extensionEntries: nil, reachRefused: nil)
            case .page(let entry):
                PreviewRow(entry: visibleText(url), reachHost: nil, reachPage: entry, extensionEntries: BlocklistRules.extensionEntries(page: entry).joined(separator: "  "),
                           reachRefused: nil)
            case .nothing(let why):
                PreviewRow(entry: visibleText(url), reachHost: nil, reachPage: nil, extensionEntries: nil, reachRefused: why)
            }
        }
        return Preview(ownDomains: draft.ownDomains.isEmpty ? "none" : visibleText(draft.ownDomains.joined(separator: ", ")), rows: rows,
                       empty: draft.urls.isEmpty)
    }
}
