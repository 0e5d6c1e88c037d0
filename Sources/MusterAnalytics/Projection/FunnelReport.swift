/// A funnel asked of the fold: ordered steps (each one or more step names: `login|register`),
/// a conversion window from the first step, and optionally a time range for the first step.
///
/// Each person counts once: their best journey, the one that got furthest. A journey starts at
/// a first-step event; each later step must come after the previous one and within the window of
/// the start. The journey's segment and app version are those of its first step.
package struct FunnelQuery: Sendable, Hashable {
    package var funnel: String
    package var steps: [[String]]
    package var windowMillis: Int64
    package var since: Int64?
    package var until: Int64?

    package init(funnel: String, steps: [[String]], windowMillis: Int64 = 24 * 3_600_000, since: Int64? = nil, until: Int64? = nil) {
        self.funnel = funnel
        self.steps = steps
        self.windowMillis = windowMillis
        self.since = since
        self.until = until
    }

    /// The booking funnel of the OFFLEASH PRD.
    package static let bookingSteps = [["login", "register"], ["services"], ["location"], ["booking_start"], ["booking_complete"]]
}

package struct FunnelReport: Codable, Sendable, Equatable {
    package struct Step: Codable, Sendable, Equatable {
        package var step: String
        package var people: Int
        /// Of the previous step's people, the share that reached this one (1 for the first step).
        package var conversion: Double
        /// Of the first step's people.
        package var conversionFromStart: Double
        /// People of the previous step that did not reach this one.
        package var dropOff: Int
    }

    package struct Breakdown: Codable, Sendable, Equatable {
        package var key: String
        package var steps: [Step]
    }

    package var funnel: String
    package var windowHours: Double
    package var steps: [Step]
    package var bySegment: [Breakdown]
    package var byAppVersion: [Breakdown]

    /// The report over each person's hits (in time order).
    package init(query: FunnelQuery, people: some Sequence<[FunnelProjection.Hit]>) {
        var count = FunnelCount(query: query)
        for hits in people { count.add(hits) }
        self = count.report
    }

    init(query: FunnelQuery, all: [Int], segments: [String: [Int]], versions: [String: [Int]]) {
        funnel = query.funnel
        windowHours = Double(query.windowMillis) / 3_600_000
        let names = query.steps.map { $0.joined(separator: "|") }
        steps = Self.steps(names, all)
        bySegment = segments.sorted { $0.key < $1.key }.map { Breakdown(key: $0.key, steps: Self.steps(names, $0.value)) }
        byAppVersion = versions.sorted { Self.versionOrder($0.key, $1.key) }.map { Breakdown(key: $0.key, steps: Self.steps(names, $0.value)) }
    }

    static func steps(_ names: [String], _ counts: [Int]) -> [Step] {
        names.indices.map { k in
            let previous = k == 0 ? counts[0] : counts[k - 1]
            return Step(step: names[k], people: counts[k],
                        conversion: previous == 0 ? 0 : Double(counts[k]) / Double(previous),
                        conversionFromStart: counts[0] == 0 ? 0 : Double(counts[k]) / Double(counts[0]),
                        dropOff: k == 0 ? 0 : previous - counts[k])
        }
    }

    /// The furthest step (index) of the person's best journey, with that journey's segment and version.
    static func bestJourney(_ hits: [FunnelProjection.Hit], _ q: FunnelQuery) -> (reached: Int, segment: String, appVersion: String)? {
        var best: (reached: Int, segment: String, appVersion: String)?
        for (i, start) in hits.enumerated() where q.steps[0].contains(start.step) {
            if let since = q.since, start.at < since { continue }
            if let until = q.until, start.at >= until { continue }
            let deadline = start.at + q.windowMillis
            var reached = 0
            var at = start.at
            var j = i + 1
            while reached + 1 < q.steps.count, j < hits.count, hits[j].at <= deadline {
                if hits[j].at >= at, q.steps[reached + 1].contains(hits[j].step) {
                    reached += 1
                    at = hits[j].at
                }
                j += 1
            }
            if reached > best?.reached ?? -1 { best = (reached, start.segment, start.appVersion) }
            if reached == q.steps.count - 1 { break }
        }
        return best
    }

    /// `2.10.0` after `2.9.1`.
    static func versionOrder(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }, y = b.split(separator: ".").map { Int($0) ?? 0 }
        return x.lexicographicallyPrecedes(y) || (x == y && a < b)
    }
}

/// Counts a funnel one person at a time, so the people need not all be in memory at once.
struct FunnelCount {
    let query: FunnelQuery
    var all: [Int]
    var segments: [String: [Int]] = [:]
    var versions: [String: [Int]] = [:]

    init(query: FunnelQuery) {
        self.query = query
        all = [Int](repeating: 0, count: query.steps.count)
    }

    /// Counts one person (their hits in time order); no hits count nothing.
    mutating func add(_ hits: [FunnelProjection.Hit]) {
        guard let journey = FunnelReport.bestJourney(hits, query) else { return }
        let zeros = all.map { _ in 0 }
        for k in 0...journey.reached {
            all[k] += 1
            segments[journey.segment, default: zeros][k] += 1
            versions[journey.appVersion, default: zeros][k] += 1
        }
    }

    var report: FunnelReport { FunnelReport(query: query, all: all, segments: segments, versions: versions) }
}
