import ArgumentParser
import Foundation
import MusterCommandLine
import MusterEvents
import MusterGeo
import MusterLog
import MusterOPL

extension Bench {
    /// Loads approved OPL actions spread over the contiguous US (with a cluster around Rapid City,
    /// where the bench queries): `actions` × (1 + `sites`) geofences, one blocklist entry each.
    struct OPLLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "opl-load")
        @Option var actions = 10_000
        @Option(help: "Sites per action besides the action's own point.") var sites = 4
        @OptionGroup var common: CommonOptions

        func run() async throws {
            var rng = SystemRandomNumberGenerator()
            var events: [any EventPayload] = []
            let start = Timestamp.string(Date().addingTimeInterval(-86_400))
            for i in 0..<actions {
                let clustered = i % 50 == 0 // 2 % near Rapid City, the rest across the country
                let lat = clustered ? 44.08 + Double.random(in: -1...1, using: &rng) : Double.random(in: 25...49, using: &rng)
                let lng = clustered ? -103.23 + Double.random(in: -1.3...1.3, using: &rng) : Double.random(in: -124...(-67), using: &rng)
                let id = String(format: "act_%016llx", UInt64(i) &* 0x9E37_79B9_7F4A_7C15)
                let employer = EmployerDetails(name: "Employer \(i)", industry: "Logistics", website: "https://employer\(i).example.com")
                let details = ActionDetails(organization: "Local \(i % 500)", actionType: ActionTypes.all.sorted()[i % 8],
                                            location: "Site \(i)", startDate: start, durationDays: 365, description: "Bench action \(i)",
                                            demands: "Fair contract", learnMoreUrl: "https://unions.example.org/\(i)",
                                            coordinates: Coordinates(latitude: lat, longitude: lng))
                let siteList = (0..<sites).map { s in
                    ActionSite(locationId: String(format: "loc_%016llx", UInt64(i * 16 + s) &* 0x9E37_79B9_7F4A_7C15), type: s == 0 ? "picket-site" : "employer-location",
                               name: "Gate \(s)", latitude: lat + Double.random(in: -0.02...0.02, using: &rng),
                               longitude: lng + Double.random(in: -0.02...0.02, using: &rng), notificationRadius: 200)
                }
                events.append(ActionSubmitted(actionId: id, employer: employer, action: details, submittedBy: "bench", channel: "import"))
                events.append(ActionApproved(actionId: id, employerId: OPLIDs.employer(named: employer.name), employer: employer, action: details,
                                             urls: ["employer\(i).example.com"], locations: siteList, moderator: "bench", reason: "bench load"))
            }
            try await common.withLog { log, _, _ in
                for chunk in stride(from: 0, to: events.count, by: 2_000) {
                    for event in events[chunk..<min(chunk + 2_000, events.count)] { _ = try await log.append(event) }
                }
            }
            print(#"{"actions": \#(actions), "geofences": \#(actions * (sites + 1))}"#)
        }
    }

    /// The gazetteer alone: reverse lookups one at a time and forward-geocoding latencies.
    struct Geocode: AsyncParsableCommand {
        @Option var gazetteer = ".data/gazetteer/places.tsv"
        @Option var queries = 100_000
        @Option(help: "File of lat,lng lines to reverse (the same points the Python baseline reads).") var points: String?

        func run() async throws {
            let loadStart = ContinuousClock.now
            let g = try Gazetteer(contentsOf: gazetteer)
            let loadSeconds = (ContinuousClock.now - loadStart).seconds
            var coordinates: [(Double, Double)] = []
            if let points, let text = try? String(contentsOfFile: points, encoding: .utf8) {
                coordinates = text.split(separator: "\n").compactMap { line in
                    let parts = line.split(separator: ",")
                    guard parts.count == 2, let lat = Double(parts[0]), let lng = Double(parts[1]) else { return nil }
                    return (lat, lng)
                }
            }
            if coordinates.isEmpty {
                var rng = SystemRandomNumberGenerator()
                coordinates = (0..<1000).map { _ in (Double.random(in: -60...70, using: &rng), Double.random(in: -180...180, using: &rng)) }
            }
            var found = 0
            let start = ContinuousClock.now
            for i in 0..<queries {
                let (lat, lng) = coordinates[i % coordinates.count]
                if g.reverse(latitude: lat, longitude: lng) != nil { found += 1 }
            }
            let reversePerSecond = Double(queries) / (ContinuousClock.now - start).seconds

            // Forward: "City, ST" for US towns and ZIP codes, one at a time, each timed.
            let us = g.places.filter { $0.stateCode != nil }
            let inputs = (0..<2000).map { i -> String in
                i % 4 == 3 ? Array(g.zips.keys)[i % g.zips.count] : "\(us[(i * 7919) % us.count].name), \(us[(i * 7919) % us.count].stateCode!)"
            } + ["512 Main St, Rapid City, SD 57701", "Rapid City, South Dakota"]
            var latencies: [Double] = []
            var answered = 0
            for round in 0..<10 {
                for input in inputs {
                    let t = ContinuousClock.now
                    let result = g.forward(input)
                    let micros = (ContinuousClock.now - t).seconds * 1e6
                    if round > 0 { latencies.append(micros) } // round 0 warms up
                    if result != nil { answered += 1 }
                }
            }
            latencies.sort()
            func p(_ q: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] }
            print(#"{"load_seconds": \#(String(format: "%.2f", loadSeconds)), "places": \#(g.places.count), "reverse_per_sec": \#(Int(reversePerSecond)), "reverse_found": \#(found), "forward_p50_us": \#(String(format: "%.1f", p(0.5))), "forward_p99_us": \#(String(format: "%.1f", p(0.99))), "forward_max_us": \#(String(format: "%.1f", latencies.last ?? 0)), "forward_answered": \#(answered)}"#)
        }
    }
}

extension Bench {
    /// The moderation checks on a fold holding `actions` approved actions (in memory, no NATS):
    /// checks a second for new submissions, some against an employer that already has actions.
    struct ModerationChecksCost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "moderation-checks")
        @Option var actions = 100_000
        @Option var checks = 20_000

        func run() async throws {
            var state = OPLProjection.initialState
            let start = Timestamp.string(Date().addingTimeInterval(-86_400))
            func details(_ i: Int) -> ActionDetails {
                ActionDetails(organization: "Local \(i % 500)", actionType: "strike", location: "Site \(i)", startDate: start, durationDays: 365,
                              description: "Bench action \(i)", coordinates: Coordinates(latitude: 25 + Double(i % 2400) / 100, longitude: -120 + Double(i % 5000) / 100))
            }
            var sequence: UInt64 = 0
            let catalog = EventCatalog.opl
            let encoder = JSONEncoder()
            func fold(_ payload: some EventPayload) throws { // as a replay would: an envelope, decoded by the catalog
                sequence += 1
                let body = try encoder.encode(EventEnvelope(source: "bench", data: payload))
                try OPLProjection.apply(try catalog.decode(subject: payload.eventType.subject(aggregateID: payload.aggregateID),
                                                           sequence: sequence, payload: body), to: &state)
            }
            for i in 0..<actions {
                let id = String(format: "act_%016llx", UInt64(i) &* 0x9E37_79B9_7F4A_7C15)
                let employer = EmployerDetails(name: "Employer \(i % max(1, actions / 4))") // four actions an employer
                try fold(ActionSubmitted(actionId: id, employer: employer, action: details(i), submittedBy: "key_\(i % 1000)", channel: "import"))
                try fold(ActionApproved(actionId: id, employerId: OPLIDs.employer(named: employer.name), employer: employer, action: details(i),
                                        urls: [], locations: [], moderator: "bench", reason: "bench load"))
            }
            var flagged = 0
            let clock = ContinuousClock.now
            for n in 0..<checks {
                let submitted = ActionSubmitted(actionId: String(format: "act_%016llx", UInt64(actions + n) &* 0x9E37_79B9_7F4A_7C15),
                                                employer: EmployerDetails(name: "Employer \(n % max(1, actions / 4))", website: "https://e\(n).example.com"),
                                                action: details(n), submittedBy: "key_\(n % 1000)")
                flagged += ModerationChecks.flags(for: submitted, in: state).count
            }
            let seconds = (ContinuousClock.now - clock).seconds
            print(#"{"actions": \#(actions), "checks": \#(checks), "checksPerSecond": \#(Int(Double(checks) / seconds)), "microsPerCheck": \#((seconds / Double(checks) * 1e6 * 10).rounded() / 10), "flags": \#(flagged)}"#)
        }
    }
}
