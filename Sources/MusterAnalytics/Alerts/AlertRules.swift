import Foundation
import Crypto
import MusterEvents

/// A rule's change of mind: start firing, or stop.
package struct AlertTransition: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable { case raised, resolved }
    package var kind: Kind
    package var alertId: String
    package var rule: AlertRule
    package var app: String
    package var target: String
    /// The minute (since 1970) the rule was evaluated at.
    package var minute: Int64
    package var windowMinutes: Int64
    package var observed: Double
    package var threshold: Double
    package var count: Int
    package var message: String
}

/// The alert rules as a pure state machine over event time, in minutes: fed every API call and
/// crash, it says when an alert starts and stops. No I/O, no wall clock, so a replay of the log
/// computes the same alerts, and the tests drive it directly.
///
/// Each app has a clock: the latest minute any of its events happened at. Rules are evaluated
/// at that clock, over the window ending there; an offline batch from days ago fills in the
/// charts but does not fire today's alerts.
package struct AlertRules: Codable, Sendable, Equatable {
    package struct Settings: Codable, Sendable, Equatable {
        /// Error rate: more than `errorRate` of an endpoint's requests failed in `errorWindow`
        /// minutes, counted only when it had at least `minRequests`.
        package var errorRate = 0.05
        package var errorWindow: Int64 = 5
        package var minRequests = 20
        /// Crash spike: crashes in the last `crashWindow` minutes at least `spikeFactor` times the
        /// usual rate over the day before, and at least `minCrashes`.
        package var crashWindow: Int64 = 60
        package var spikeFactor = 3.0
        package var minCrashes = 5
        package init() {}
    }

    struct Counts: Codable, Sendable, Equatable {
        var total = 0
        var failed = 0
    }

    package var settings = Settings()
    /// app → latest minute.
    var clock: [String: Int64] = [:]
    /// app → endpoint → minute → counts (only the last `errorWindow` minutes are kept).
    var requests: [String: [String: [Int64: Counts]]] = [:]
    /// app → minute → crashes (the last day and an hour).
    var crashes: [String: [Int64: Int]] = [:]
    /// app → target → the alert firing now.
    var firing: [String: [String: String]] = [:]
    /// app → target → alerts raised so far (part of each id, so a target that fires twice in one
    /// minute still gets two alerts).
    var raisedCount: [String: [String: Int]] = [:]

    package init(settings: Settings = Settings()) { self.settings = settings }

    package func isFiring(app: String, target: String) -> Bool { firing[app]?[target] != nil }

    package mutating func apiCall(app: String, endpoint: String, minute: Int64, failed: Bool) -> [AlertTransition] {
        if clock[app].map({ minute > $0 - settings.errorWindow }) ?? true {
            var counts = requests[app]?[endpoint]?[minute] ?? Counts()
            counts.total += 1
            if failed { counts.failed += 1 }
            requests[app, default: [:]][endpoint, default: [:]][minute] = counts
        }
        return advance(app: app, to: minute, touched: endpoint)
    }

    package mutating func crash(app: String, minute: Int64) -> [AlertTransition] {
        if clock[app].map({ minute > $0 - settings.crashWindow - 1440 }) ?? true {
            crashes[app, default: [:]][minute, default: 0] += 1
        }
        return advance(app: app, to: minute, touched: Self.crashTarget)
    }

    /// Any other event of the app moves its clock, so alerts resolve when things calm down.
    package mutating func tick(app: String, minute: Int64) -> [AlertTransition] {
        advance(app: app, to: minute, touched: nil)
    }

    static let crashTarget = "crashes"

    mutating func advance(app: String, to minute: Int64, touched: String?) -> [AlertTransition] {
        let previous = clock[app] ?? .min
        let now = max(previous, minute)
        clock[app] = now
        if now > previous { prune(app: app, now: now) }
        // Nearly always nothing fires: then only the touched target is looked at (no set, no sort).
        guard let firingTargets = firing[app]?.keys, !firingTargets.isEmpty else {
            return touched.flatMap { evaluate(app: app, target: $0, now: now) }.map { [$0] } ?? []
        }
        var targets = Set(firingTargets)
        if let touched { targets.insert(touched) }
        return targets.sorted().compactMap { evaluate(app: app, target: $0, now: now) }
    }

    mutating func prune(app: String, now: Int64) {
        if var endpoints = requests[app] {
            for (endpoint, minutes) in endpoints {
                let kept = minutes.filter { $0.key > now - settings.errorWindow }
                endpoints[endpoint] = kept.isEmpty ? nil : kept
            }
            requests[app] = endpoints
        }
        crashes[app] = crashes[app]?.filter { $0.key > now - settings.crashWindow - 1440 }
    }

    mutating func evaluate(app: String, target: String, now: Int64) -> AlertTransition? {
        let firingID = firing[app]?[target]
        if target == Self.crashTarget {
            var recent = 0, before = 0
            for (minute, count) in crashes[app] ?? [:] {
                if minute > now - settings.crashWindow { recent += count } else { before += count }
            }
            let usual = Double(before) / (1440.0 / Double(settings.crashWindow))
            let threshold = max(Double(settings.minCrashes), settings.spikeFactor * usual)
            let spiking = Double(recent) >= threshold
            return transition(app: app, target: target, now: now, firingID: firingID, on: spiking, rule: .crashSpike,
                              window: settings.crashWindow, observed: Double(recent), threshold: threshold, count: recent,
                              raised: "\(recent) crashes in the last hour, usually \(String(format: "%.1f", usual))",
                              resolved: "\(recent) crashes in the last hour, below \(String(format: "%.1f", threshold))")
        }
        var total = 0, failed = 0
        for (minute, counts) in requests[app]?[target] ?? [:] where minute > now - settings.errorWindow {
            total += counts.total
            failed += counts.failed
        }
        let rate = total == 0 ? 0 : Double(failed) / Double(total)
        // The messages are written only for a transition (`@autoclosure`): formatting them for every
        // API call cost a tenth of the analytics rebuild.
        var percent: String { String(format: "%.1f", rate * 100) }
        let window = settings.errorWindow
        // Fires on enough evidence; once firing, it needs evidence of recovery (enough requests and a
        // low rate, or no failures at all) so that traffic hovering around the minimum does not flap.
        let on = firingID == nil
            ? total >= settings.minRequests && rate > settings.errorRate
            : failed > 0 && (total < settings.minRequests || rate > settings.errorRate)
        return transition(app: app, target: target, now: now, firingID: firingID, on: on, rule: .errorRate,
                          window: window, observed: rate, threshold: settings.errorRate, count: total,
                          raised: "\(percent)% of \(total) requests to \(target) failed in \(window) minutes",
                          resolved: failed == 0
                              ? "\(target): no failures in \(window) minutes (\(total) requests)"
                              : "\(target): \(percent)% of \(total) requests failed in \(window) minutes")
    }

    mutating func transition(app: String, target: String, now: Int64, firingID: String?, on: Bool, rule: AlertRule, window: Int64,
                             observed: Double, threshold: Double, count: Int,
                             raised: @autoclosure () -> String, resolved: @autoclosure () -> String) -> AlertTransition? {
        switch (firingID, on) {
        case (nil, true):
            let n = (raisedCount[app]?[target] ?? 0) + 1
            raisedCount[app, default: [:]][target] = n
            let id = Self.alertID(rule: rule, app: app, target: target, minute: now, n: n)
            firing[app, default: [:]][target] = id
            return AlertTransition(kind: .raised, alertId: id, rule: rule, app: app, target: target, minute: now, windowMinutes: window,
                                   observed: observed, threshold: threshold, count: count, message: raised())
        case (let id?, false):
            firing[app]?[target] = nil
            return AlertTransition(kind: .resolved, alertId: id, rule: rule, app: app, target: target, minute: now, windowMinutes: window,
                                   observed: observed, threshold: threshold, count: count, message: resolved())
        default:
            return nil
        }
    }

    /// The same rule, app, target, minute and count always name the same alert.
    static func alertID(rule: AlertRule, app: String, target: String, minute: Int64, n: Int) -> String {
        let digest = SHA256.hash(data: Array("\(rule.rawValue)\n\(app)\n\(target)\n\(minute)\n\(n)".utf8))
        return "al_" + digest.prefix(8).map { String($0 >> 4, radix: 16) + String($0 & 0xf, radix: 16) }.joined()
    }
}
