/// The roles a `muster serve` process can take; `muster serve ingest query` takes two. Each app
/// adds its part to each role (`MusterApp.add(to:role:environment:)`), so a role is the sum of
/// what the apps bring to it.
package enum ServiceRole: String, CaseIterable, Sendable {
    /// The write side: the apps' write routes and validated appends over NATS.
    case ingest
    /// Addresses to coordinates and back, offline.
    case geocode
    /// Automatic checks, the moderators' queue and decisions.
    case moderation
    /// Analytics and crash collection (folds nothing, so it scales out).
    case collector
    /// Alert rules and their delivery.
    case notifier
    /// Projections over HTTP. Reads only.
    case query

    /// The name on the command line and in service discovery.
    package var name: String { rawValue }

    package var summary: String {
        switch self {
        case .ingest: "validated appends to the log"
        case .geocode: "addresses to coordinates and back, offline"
        case .moderation: "automatic checks, the moderators' queue and decisions"
        case .collector: "analytics and crash collection"
        case .notifier: "alert rules and delivery to webhooks"
        case .query: "projections over HTTP"
        }
    }

    /// Every role's name, in start order.
    package static var names: [String] { allCases.map(\.name) }

    /// Resolves `all` (or nothing) to every role and checks names, with an error that lists what exists.
    package static func resolve(_ names: [String]) throws -> [String] {
        let known = Self.names
        let wanted = names.isEmpty || names.contains("all") ? known : names
        for name in wanted where !known.contains(name) {
            throw ConfigurationError("unknown service \(name); known: \(known.joined(separator: ", ")) or all")
        }
        return known.filter(wanted.contains)
    }
}
