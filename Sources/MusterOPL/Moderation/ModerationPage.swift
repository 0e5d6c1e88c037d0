import MusterRuntime
/// The moderation page: the queue and one item, server-rendered. Everything people typed is
/// escaped; the only markup is ours.
enum ModerationPage {
    static func flags(_ flags: [ModerationFlag], checked: Bool, into page: inout HTMLPage) {
        if !checked { page.raw("<span class=\"muted\">checks pending</span>"); return }
        if flags.isEmpty { page.raw("<span class=\"flag ok\">no flags</span>") }
        for flag in flags {
            page.raw("<span class=\"flag\" title=\"\(escapeHTML(flag.detail))\">"); page.text(flag.code); page.raw("</span> ")
        }
    }

    static func queue(_ queue: ModerationQueue, filter: ModerationQueue.Filter, notice: String?) -> PageBody {
        var page = HTMLPage(title: "Moderation queue")
        page.raw("<h1>Moderation queue</h1>")
        if let notice { page.raw("<p class=\"flag ok\">"); page.text(notice); page.raw("</p>") }
        page.raw("<form method=\"get\" action=\"/moderation\"><label>Status <select name=\"status\">")
        for status in ["pending", "approved", "rejected", "merged", "ended", "all"] {
            page.raw("<option\(status == filter.status ? " selected" : "")>\(status)</option>")
        }
        page.raw("</select></label> <label>Kind <select name=\"kind\"><option value=\"\">both</option>")
        for kind in ["action", "snapshot"] { page.raw("<option\(kind == filter.kind ? " selected" : "")>\(kind)</option>") }
        page.raw("</select></label> <label>Flag <select name=\"flag\"><option value=\"\">any</option>")
        for code in ModerationFlag.codes.sorted() { page.raw("<option\(code == filter.flag ? " selected" : "")>\(code)</option>") }
        page.raw("</select></label> <label>Text <input name=\"q\" value=\"\(escapeHTML(filter.text ?? ""))\" size=\"20\"></label> <button>Filter</button></form>")
        page.raw("<p>\(queue.count) item(s)</p><table><tr><th>Kind</th><th>Employer</th><th>What</th><th>Flags</th><th>Submitted</th><th>Status</th></tr>")
        for item in queue.items {
            page.raw("<tr><td>\(item.kind)</td><td><a href=\"/moderation/\(item.kind)s/\(escapeHTML(item.id))\">")
            page.text(item.employerName)
            page.raw("</a></td><td>")
            page.text(item.summary)
            page.raw("</td><td>")
            flags(item.flags, checked: item.checked, into: &page)
            page.raw("</td><td>")
            page.text(item.submittedAt)
            page.raw("</td><td>\(escapeHTML(item.status))</td></tr>")
        }
        page.raw("</table>")
        return page.body()
    }

    static func field(_ name: String, _ value: String?, into page: inout HTMLPage) {
        guard let value else { return }
        page.raw("<dt>\(name)</dt><dd>")
        page.text(value)
        page.raw("</dd>")
    }

    static func history(_ decisions: [OPLProjection.Decision], into page: inout HTMLPage) {
        guard !decisions.isEmpty else { return }
        page.raw("<h3>Decisions</h3><ul>")
        for d in decisions {
            page.raw("<li>"); page.text("\(d.at) \(d.kind) by \(d.moderator): \(d.reason)"); page.raw("</li>")
        }
        page.raw("</ul>")
    }

    /// One action. `draft` is what a preview was asked for; nil shows the action's own entries.
    static func action(_ a: OPLProjection.Action, rules: BlocklistRules, draft typed: BlocklistDraft? = nil, notice: String?) -> PageBody {
        var page = HTMLPage(title: "Action \(a.id)")
        page.raw("<p><a href=\"/moderation\">← queue</a></p><h1>")
        page.text(a.employer.name)
        page.raw(" <small class=\"muted\">\(escapeHTML(a.id)) · \(a.status.rawValue)</small></h1>")
        if let notice { page.raw("<p class=\"flag ok\">"); page.text(notice); page.raw("</p>") }
        page.raw("<p>")
        flags(a.flags, checked: a.checked, into: &page)
        for flag in a.flags { page.raw("<br><span class=\"muted\">"); page.text("\(flag.code): \(flag.detail)"); page.raw("</span>") }
        page.raw("</p><dl>")
        let d = a.details
        field("Industry", a.employer.industry, into: &page)
        field("Website", a.employer.website, into: &page)
        field("Organization", d.organization, into: &page)
        field("Type", d.actionType, into: &page)
        field("Location", d.location, into: &page)
        field("Coordinates", a.coordinates.map { "\($0.latitude), \($0.longitude)" + (d.coordinates == nil ? " (geocoded)" : "") }, into: &page)
        field("Start", d.startDate, into: &page)
        field("Duration", "\(d.durationDays) days", into: &page)
        field("Description", d.description, into: &page)
        field("Demands", d.demands, into: &page)
        field("Contact", d.contactInfo, into: &page)
        field("Learn more", d.learnMoreUrl, into: &page)
        field("Blocklist entries", a.urls.isEmpty ? nil : a.urls.joined(separator: "\n"), into: &page)
        field("Sites", a.locations.isEmpty ? nil : a.locations.map { "\($0.type) \($0.name ?? "") \($0.latitude), \($0.longitude) r=\($0.notificationRadius) m" }.joined(separator: "\n"), into: &page)
        field("Submitted", "\(a.submittedAt) by \(a.submittedBy) via \(a.channel)", into: &page)
        field("Merged into", a.mergedInto, into: &page)
        page.raw("</dl>")
        let draft = typed ?? BlocklistDraft.current(a, rules: rules)
        blocklistPreview(draft, rules: rules, into: &page)
        history(a.decisions, into: &page)
        let base = "/moderation/actions/\(escapeHTML(a.id))"
        if [.submitted, .approved].contains(a.status) {
            page.raw("""
            <form method="post" action="\(base)/approve"><fieldset><legend>Approve</legend>
            <label>Blocklist entries, one per line (the employer's site, or its page on another site)<textarea name="urls" rows="3">\(escapeHTML(draft.urls.joined(separator: "\n")))</textarea></label>
            <label>The employer's own domains, one per line (entries under them block the whole host everywhere)<textarea name="ownDomains" rows="2">\(escapeHTML(draft.ownDomains.joined(separator: "\n")))</textarea></label>
            <button formaction="\(base)/preview">Preview what each client will block</button>
            <fieldset><legend>Add a picket site</legend><label>Latitude <input name="siteLatitude" size="10"></label>
            <label>Longitude <input name="siteLongitude" size="10"></label> <label>Name <input name="siteName" size="20"></label></fieldset>
            <label>Reason <input type="text" name="reason" value="verified"></label> <button>Approve</button></fieldset></form>
            """)
        }
        if a.status == .submitted {
            page.raw("<form method=\"post\" action=\"\(base)/reject\"><fieldset><legend>Reject</legend><label>Reason <input type=\"text\" name=\"reason\" required></label> <button>Reject</button></fieldset></form>")
        }
        if a.status == .rejected {
            page.raw("<form method=\"post\" action=\"\(base)/reopen\"><fieldset><legend>Reopen (take back the rejection)</legend><label>Reason <input type=\"text\" name=\"reason\" required></label> <button>Reopen</button></fieldset></form>")
        }
        if [.submitted, .approved].contains(a.status) {
            page.raw("<form method=\"post\" action=\"\(base)/merge\"><fieldset><legend>Merge into another action</legend><label>Action id <input name=\"into\" value=\"\(escapeHTML(a.flags.first { $0.code == "duplicate" }?.relatedId ?? ""))\"></label> <label>Reason <input type=\"text\" name=\"reason\" value=\"duplicate\" required></label> <button>Merge</button></fieldset></form>")
        }
        if a.status == .approved {
            page.raw("<form method=\"post\" action=\"\(base)/end\"><fieldset><legend>End</legend><label>Reason <input type=\"text\" name=\"reason\" required></label> <button>End action</button></fieldset></form>")
        }
        if [.approved, .ended].contains(a.status) {
            page.raw("<form method=\"post\" action=\"\(base)/extend\"><fieldset><legend>Extend</legend><label>New total days <input name=\"durationDays\" value=\"\(d.durationDays + 7)\" size=\"5\"></label> <label>Reason <input type=\"text\" name=\"reason\" required></label> <button>Extend</button></fieldset></form>")
        }
        return page.body()
    }

    static func snapshot(_ s: OPLProjection.Snapshot, action: OPLProjection.Action?, notice: String?) -> PageBody {
        var page = HTMLPage(title: "Snapshot \(s.id)")
        page.raw("<p><a href=\"/moderation\">← queue</a></p><h1>GPS snapshot <small class=\"muted\">\(escapeHTML(s.id)) · \(s.status.rawValue)</small></h1>")
        if let notice { page.raw("<p class=\"flag ok\">"); page.text(notice); page.raw("</p>") }
        page.raw("<p>")
        flags(s.flags, checked: s.checked, into: &page)
        for flag in s.flags { page.raw("<br><span class=\"muted\">"); page.text("\(flag.code): \(flag.detail)"); page.raw("</span>") }
        page.raw("</p><dl>")
        field("Action", "\(action?.employer.name ?? "?") (\(s.actionId))", into: &page)
        field("Coordinates", "\(s.latitude), \(s.longitude)", into: &page)
        field("Address", s.address, into: &page)
        field("Notes", s.notes, into: &page)
        field("Submitted", "\(s.submittedAt) by \(s.submittedBy)", into: &page)
        page.raw("</dl>")
        history(s.decisions, into: &page)
        if s.status == .submitted {
            let base = "/moderation/snapshots/\(escapeHTML(s.id))"
            page.raw("""
            <form method="post" action="\(base)/approve"><fieldset><legend>Approve as a site</legend>
            <select name="type"><option>picket-site</option><option>employer-location</option></select>
            radius (m) <input name="notificationRadius" value="250" size="6"> <label>Reason <input type="text" name="reason" value="verified"></label>
            <button>Approve</button></fieldset></form>
            <form method="post" action="\(base)/reject"><fieldset><legend>Reject</legend><label>Reason <input type="text" name="reason" required></label> <button>Reject</button></fieldset></form>
            """)
        }
        return page.body()
    }
}
