package import Foundation
import MusterEvents
import MusterGeo

/// The automatic checks that run on every submission before a moderator sees it. Pure: the
/// state, the submission and the clock in, flags out.
package enum ModerationChecks {
    /// Two actions against one employer closer than this, with overlapping dates, are likely one.
    package static let duplicateDistance = 50_000.0
    /// A snapshot farther than this from every known place of its action is suspicious.
    package static let snapshotDistance = 50_000.0
    /// More submissions than this from one key within an hour are flagged.
    package static let submissionsPerHour = 5

    package static func flags(for submitted: ActionSubmitted, in state: OPLProjection.State, now: Date = Date()) -> [ModerationFlag] {
        var flags: [ModerationFlag] = []
        let employerId = OPLIDs.employer(named: submitted.employer.name)
        let start = OPLDates.parse(submitted.action.startDate) ?? now
        let end = start.addingTimeInterval(Double(submitted.action.durationDays) * 86_400)
        let here = submitted.action.coordinates
        // Only the employer's own actions (an index in the fold), never a scan of every action.
        for id in (state.actionsByEmployer[employerId] ?? []).sorted() where id != submitted.actionId {
            guard let other = state.actions[id], other.status != .rejected, other.status != .merged,
                  let otherStart = other.startDate, let otherEnd = other.endDate, otherStart < end, start < otherEnd else { continue }
            if let here, let there = other.coordinates,
               distanceMeters(here.latitude, here.longitude, there.latitude, there.longitude) > duplicateDistance { continue }
            flags.append(ModerationFlag(code: "duplicate", detail: "same employer and overlapping dates as \(other.id) (\(other.status.rawValue))",
                                        relatedId: other.id))
            break
        }
        if let website = submitted.employer.website {
            if let problem = websiteProblem(website) { flags.append(ModerationFlag(code: "website", detail: problem)) }
        }
        for (field, url) in [("learnMoreUrl", submitted.action.learnMoreUrl), ("logoUrl", submitted.action.logoUrl)] {
            if let url, let problem = urlProblem(url) { flags.append(ModerationFlag(code: "url", detail: "\(field): \(problem)")) }
        }
        let nowMillis = Timestamp.millis(now)
        // This submission itself, once folded, is among the submitter's recent ones: not counted twice.
        let folded = state.actions[submitted.actionId].map { isRecent($0.submittedAt, now) ? 1 : 0 } ?? 0
        let recent = OPLProjection.State.recent(state.actionTimesBySubmitter[submitted.submittedBy], now: nowMillis) - folded
        if recent + 1 > submissionsPerHour {
            flags.append(ModerationFlag(code: "rate", detail: "\(recent + 1) submissions from \(submitted.submittedBy) within an hour"))
        }
        if here == nil, submitted.action.location.trimmingCharacters(in: .whitespaces).lowercased() == "unknown" {
            flags.append(ModerationFlag(code: "no-location", detail: "no coordinates and the location is \"Unknown\""))
        }
        return flags
    }

    package static func flags(for snapshot: SnapshotSubmitted, in state: OPLProjection.State, now: Date = Date()) -> [ModerationFlag] {
        var flags: [ModerationFlag] = []
        if let action = state.actions[snapshot.actionId] {
            let known = (action.coordinates.map { [($0.latitude, $0.longitude)] } ?? []) + action.locations.map { ($0.latitude, $0.longitude) }
            let nearest = known.map { distanceMeters(snapshot.latitude, snapshot.longitude, $0.0, $0.1) }.min()
            if let nearest, nearest > snapshotDistance {
                flags.append(ModerationFlag(code: "distance", detail: "\(Int(nearest / 1000)) km from the action's nearest known place",
                                            relatedId: action.id))
            }
        }
        let nowMillis = Timestamp.millis(now)
        let folded = state.snapshots[snapshot.snapshotId].map { isRecent($0.submittedAt, now) ? 1 : 0 } ?? 0
        let recent = OPLProjection.State.recent(state.snapshotTimesBySubmitter[snapshot.submittedBy], now: nowMillis) - folded
        if recent + 1 > submissionsPerHour {
            flags.append(ModerationFlag(code: "rate", detail: "\(recent + 1) snapshots from \(snapshot.submittedBy) within an hour"))
        }
        return flags
    }

    static func isRecent(_ time: String, _ now: Date) -> Bool {
        guard let date = OPLDates.parse(time) else { return false }
        return now.timeIntervalSince(date) < 3600
    }

    /// Why a website does not look like one, or nil.
    package static func websiteProblem(_ website: String) -> String? {
        guard let host = BlocklistURLs.host(of: website) else { return "website \(website.prefix(100)) is not a host name" }
        if let platform = BlocklistRules.knownPlatforms.first(where: { host == $0 || host.hasSuffix("." + $0) }) {
            return "website is on \(platform), a site many share: only the employer's page there can be blocked, in the browser extension"
        }
        if host.split(separator: ".").allSatisfy({ $0.allSatisfy(\.isNumber) }) { return "website is an IP address" }
        return nil
    }

    /// Why a link looks wrong, or nil.
    package static func urlProblem(_ url: String) -> String? {
        let lower = url.lowercased()
        if lower.hasPrefix("http://") { return "not https" }
        guard lower.hasPrefix("https://"), let host = BlocklistURLs.host(of: url) else { return "not an https URL" }
        if host.split(separator: ".").allSatisfy({ $0.allSatisfy(\.isNumber) }) { return "points at an IP address" }
        return nil
    }
}
