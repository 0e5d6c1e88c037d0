package import Foundation
import MusterGeo

/// An immutable picture of what the blocklists show at one revision and moment: live actions,
/// their geofences in a grid, and their URL entries. Answers are built from it on demand.
///
/// "Live" depends on the clock as well as on events (an action ends when its duration runs out),
/// so a view is valid until the next start or end among its actions, and is rebuilt after that.
package struct BlocklistView: Sendable {
    package struct LiveAction: Sendable {
        package var action: OPLProjection.Action
        package var employerId: String
        /// `approved` (not started yet), `active`, or `ended` (only shown with includeInactive).
        package var status: String
        package var startDate: String
        package var endDate: String?
        /// Entries every client gets: hosts under the employer's own domains.
        package var hosts: [String]
        /// Pages on other sites: the browser extension's entries alone.
        package var pages: [String]
        package var live: Bool { status != "ended" }
    }

    /// The fold's `blocklistRevision` this view was built from.
    package let revision: UInt64
    package let builtAt: Date
    package let validUntil: Date
    package let actions: [LiveAction]
    let geofences: GeoGrid<(item: MobileData.GeofenceItem, live: Bool)>

    /// Default notification radius, metres, of an action placed by its own coordinates.
    package static let actionRadius = 1_000

    package init(state: OPLProjection.State, rules: BlocklistRules, now: Date = Date()) {
        revision = state.blocklistRevision
        builtAt = now
        var next = Date.distantFuture
        var actions: [LiveAction] = []
        for action in state.actions.values.sorted(by: { $0.id < $1.id }) {
            guard let employerId = action.employerId, action.showsInBlocklists else { continue }
            guard let start = action.startDate, let end = action.endDate else { continue }
            let status: String
            if action.status == .ended || end <= now { status = "ended" }
            else if start > now { status = "approved"; next = min(next, start) }
            else { status = "active" }
            if action.status == .approved, end > now { next = min(next, end) }
            let own = rules.ownDomains(recorded: action.ownDomains, website: action.employer.website)
            var hosts: [String] = [], pages: [String] = []
            for url in action.urls {
                switch rules.reach(of: url, own: own) {
                case .host(let host): if !hosts.contains(host) { hosts.append(host) }
                case .page(let page): if !pages.contains(page) { pages.append(page) }
                case .nothing: break
                }
            }
            actions.append(LiveAction(action: action, employerId: employerId, status: status, startDate: action.details.startDate,
                                      endDate: action.endDate.map(OPLDates.string), hosts: hosts, pages: pages))
        }
        validUntil = next
        self.actions = actions

        var grid = GeoGrid<(item: MobileData.GeofenceItem, live: Bool)>()
        for live in actions {
            let a = live.action
            func item(id: String, type: String, lat: Double, lng: Double, radius: Int, name: String?, locationType: String?) -> MobileData.GeofenceItem {
                MobileData.GeofenceItem(id: id, type: type, actionId: a.id, employerId: live.employerId, employerName: a.employer.name,
                                        actionType: a.details.actionType, coordinates: .init(lat: lat, lng: lng), distance: 0,
                                        notificationRadius: radius, organization: a.details.organization, location: a.details.location,
                                        startDate: live.startDate, endDate: live.endDate, description: a.details.description,
                                        demands: a.details.demands, moreInfoUrl: a.details.learnMoreUrl, locationName: name,
                                        locationType: locationType)
            }
            if let c = a.coordinates {
                grid.insert(lat: c.latitude, lng: c.longitude,
                            (item(id: a.id, type: "action", lat: c.latitude, lng: c.longitude, radius: Self.actionRadius,
                                  name: a.details.location, locationType: "action"), live.live))
            }
            for site in a.locations {
                grid.insert(lat: site.latitude, lng: site.longitude,
                            (item(id: site.locationId, type: site.type, lat: site.latitude, lng: site.longitude,
                                  radius: site.notificationRadius, name: site.name, locationType: site.type), live.live))
            }
        }
        geofences = grid
    }

    package var isCurrent: Bool { Date() < validUntil }

    /// `GET /api/mobile/data` for one region.
    package func mobileData(lat: Double, lng: Double, radius: Int, includeInactive: Bool, generatedAt: String) -> MobileData {
        var all: [MobileData.GeofenceItem] = []
        for (distance, entry) in geofences.within(Double(radius), ofLat: lat, lng: lng) where entry.live || includeInactive {
            var item = entry.item
            item.distance = Int(distance.rounded())
            all.append(item)
        }
        var groups: [MobileData.EmployerGeofences] = []
        var groupIndex: [String: Int] = [:]
        for item in all {
            if let index = groupIndex[item.employerId] {
                groups[index].geofences.append(item)
            } else {
                groupIndex[item.employerId] = groups.count
                groups.append(.init(employerId: item.employerId, employerName: item.employerName, geofences: [item]))
            }
        }
        let urls = urlEntries(includeInactive: includeInactive)
        return MobileData(generatedAt: generatedAt, suggestedRefreshInterval: 3_600_000,
                          cachedRegion: .init(center: .init(lat: lat, lng: lng), radiusMeters: radius,
                                              refreshThresholdMeters: Int((Double(radius) * 0.8).rounded())),
                          geofences: .init(total: all.count, byEmployer: groups, all: all),
                          blocklist: .init(totalUrls: urls.count, totalEmployers: Set(urls.map(\.employerId)).count, urls: urls))
    }

    /// The global URL list of the mobile answer: each employer/host pair once (an employer with
    /// several actions lists its sites once), hosts only. The iOS and Android apps match entries
    /// by host alone (Android's DNS blocking too): a page entry would block its whole site there.
    func urlEntries(includeInactive: Bool) -> [MobileData.URLEntry] {
        var entries: [MobileData.URLEntry] = []
        for live in actions where live.live || includeInactive {
            for host in live.hosts {
                entries.append(.init(url: host, employer: live.action.employer.name, employerId: live.employerId,
                                     actionType: live.action.details.actionType, actionId: live.action.id))
            }
        }
        var seen = Set<String>()
        return entries.sorted { ($0.employer, $0.url, $0.actionId) < ($1.employer, $1.url, $1.actionId) }
            .filter { seen.insert($0.employerId + "\u{1F}" + $0.url).inserted }
    }

    /// `GET /api/active-strikes`: actions people can attach a snapshot to.
    package func activeStrikes(generatedAt: String) -> ActiveStrikes {
        let strikes = actions.filter(\.live).sorted { ($0.action.employer.name, $0.action.id) < ($1.action.employer.name, $1.action.id) }.map {
            ActiveStrikes.Strike(id: $0.action.id, actionType: $0.action.details.actionType, employerName: $0.action.employer.name,
                                 employerId: $0.employerId, organization: $0.action.details.organization, location: $0.action.details.location,
                                 startDate: $0.startDate, endDate: $0.endDate, description: $0.action.details.description)
        }
        return ActiveStrikes(count: strikes.count, generatedAt: generatedAt, strikes: strikes)
    }

    /// `GET /api/blocklist.json`: employer name → entry. Hosts always; `pages` adds the page
    /// entries (`format=extension`). The DNS filter sends no `format` and reads every entry as a
    /// host: it never gets a page.
    package func extensionMap(includeInactive: Bool, pages: Bool) -> [String: ExtensionEntry] {
        var map: [String: ExtensionEntry] = [:]
        // Newest start first, so an employer's entry describes its most recent action.
        let ordered = actions.filter { $0.live || includeInactive }
            .sorted { ($0.live ? 1 : 0, $0.startDate, $0.action.id) > ($1.live ? 1 : 0, $1.startDate, $1.action.id) }
        for live in ordered {
            let a = live.action
            let urls = live.hosts + (pages ? live.pages.flatMap(BlocklistRules.extensionEntries(page:)) : [])
            let key = Self.mapKey(a.employer.name, employerId: live.employerId)
            if var existing = map[key] {
                for url in urls where !existing.matchingUrlRegexes.contains(url) { existing.matchingUrlRegexes.append(url) }
                map[key] = existing
                continue
            }
            let d = a.details
            let moreInfo = d.learnMoreUrl ?? a.employer.website.map { $0.hasPrefix("http") ? $0 : "https://\($0)" } ?? ""
            map[key] = ExtensionEntry(
                moreInfoUrl: moreInfo, matchingUrlRegexes: urls, startTime: live.startDate, logoUrl: d.logoUrl,
                actionDetails: .init(id: a.id, organization: d.organization, actionType: d.actionType, status: live.status,
                                     description: d.description, demands: d.demands ?? "", location: d.location, startDate: live.startDate,
                                     contactInfo: d.contactInfo ?? "", learnMoreUrl: d.learnMoreUrl ?? ""))
        }
        return map
    }

    /// Keys starting with `_` are reserved (`_optimizedPatterns`): such names lose the underscores.
    static func mapKey(_ name: String, employerId: String) -> String {
        let trimmed = String(name.drop { $0 == "_" })
        return trimmed.isEmpty ? employerId : trimmed
    }
}
