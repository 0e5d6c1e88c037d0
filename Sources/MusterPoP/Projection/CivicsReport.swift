import MusterEvents

/// What organisers read of the civics-progress projection, for one organisation (or all) and one
/// deck, with question texts from the deck file where it has them. Pure: state and config in,
/// values out.
package struct CivicsReport: Sendable {
    package struct QuestionRow: Codable, Sendable, Equatable {
        package var id: Int
        package var question: String?
        package var category: String?
        package var devices: Int
        package var viewers: Int
        package var views: Int
        package var known: Int
        /// Known among the devices that have a record of it; nil when none has.
        package var shareKnown: Double?
    }

    package struct KnownBucket: Codable, Sendable, Equatable {
        /// Questions known, from and to (inclusive): 0–10, 11–20, …
        package var from: Int
        package var to: Int
        package var devices: Int
    }

    package struct ActiveDay: Codable, Sendable, Equatable {
        package var date: String
        package var devices: Int
    }

    package struct OrgRow: Codable, Sendable, Equatable {
        package var org: String
        package var name: String
        package var state: String
        package var stateName: String
        package var decks: [String]
        package var devices: Int
        package var activeLast7Days: Int
    }

    let state: CivicsProjection.State
    let config: PoPConfig

    package init(state: CivicsProjection.State, config: PoPConfig) {
        self.state = state
        self.config = config
    }

    /// The organisations the filter names: one, or all of them for nil.
    func orgs(_ org: String?) -> [String] { org.map { [$0] } ?? config.orgs.map(\.slug) }

    package func questions(org: String?, deck: String) -> [QuestionRow] {
        var counts: [Int: CivicsProjection.Question] = [:]
        for slug in orgs(org) {
            for (id, q) in state.questions[slug]?[deck] ?? [:] {
                var sum = counts[id] ?? .init()
                sum.devices += q.devices
                sum.viewers += q.viewers
                sum.views += q.views
                sum.known += q.known
                counts[id] = sum
            }
        }
        let texts = config.decks.decks[deck]?.questions ?? []
        var ids = Set(texts.map(\.id))
        ids.formUnion(counts.keys)
        let byId = Dictionary(texts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.sorted().map { id in
            let q = counts[id] ?? .init()
            return QuestionRow(id: id, question: byId[id]?.question, category: byId[id]?.category, devices: q.devices, viewers: q.viewers,
                               views: q.views, known: q.known, shareKnown: q.devices == 0 ? nil : Double(q.known) / Double(q.devices))
        }
    }

    /// The questions fewest devices know, among those at least `minDevices` devices have seen.
    package func hardest(org: String?, deck: String, minDevices: Int, limit: Int) -> [QuestionRow] {
        let seen = questions(org: org, deck: deck).filter { $0.viewers >= max(1, minDevices) }
        return Array(seen.sorted { ($0.shareKnown ?? 0, -$0.viewers, $0.id) < ($1.shareKnown ?? 0, -$1.viewers, $1.id) }.prefix(limit))
    }

    /// How many devices that study `deck` know 0–10, 11–20, … of its questions.
    package func known(org: String?, deck: String) -> [KnownBucket] {
        let size = max(config.decks.decks[deck]?.questions.count ?? 0, 1)
        var buckets = [KnownBucket(from: 0, to: 10, devices: 0)]
        while buckets[buckets.count - 1].to < size {
            let from = buckets[buckets.count - 1].to + 1
            buckets.append(KnownBucket(from: from, to: from + 9, devices: 0))
        }
        let wanted = Set(orgs(org))
        for install in state.installs.values where wanted.contains(install.org) {
            guard install.cards.keys.contains(where: { $0.deck == deck }) else { continue }
            let known = install.known[deck] ?? 0
            let index = known <= 10 ? 0 : min((known - 1) / 10, buckets.count - 1)
            buckets[index].devices += 1
        }
        return buckets
    }

    /// Devices that studied on each of the `days` days up to `today` (days since 1970, UTC).
    package func active(org: String?, days: Int, today: Int) -> [ActiveDay] {
        let span = max(1, min(days, CivicsProjection.maxDays))
        return ((today - span + 1)...today).map { day in
            let devices = orgs(org).reduce(0) { $0 + (state.active[$1]?[day] ?? 0) }
            return ActiveDay(date: String(Timestamp.string(millis: Int64(day) * 86_400_000).prefix(10)), devices: devices)
        }
    }

    /// Each organisation with its state: devices, and devices active in the last 7 days.
    package func orgRows(today: Int) -> [OrgRow] {
        config.orgs.map { org in
            let devices = state.installs.values.filter { $0.org == org.slug }.count
            let recent = state.installs.values.filter { $0.org == org.slug && ($0.days.last ?? .min) > today - 7 }.count
            return OrgRow(org: org.slug, name: org.name, state: org.state, stateName: org.stateName, decks: org.decks,
                          devices: devices, activeLast7Days: recent)
        }
    }
}
