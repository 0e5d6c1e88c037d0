import MusterRuntime

/// PoP's configuration folder: `orgs.json` (organisations, their state and decks) and `decks/`
/// (one JSON file a deck). A second state or organisation is data, not code.
package struct PoPSettings: AppSettings, Equatable {
    package var configPath = "deploy/pop"

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case configPath = "MUSTER_POP_CONFIG"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .configPath:
            guard !value.isEmpty else { throw ConfigurationError("must name a folder") }
            configPath = value
        }
    }
}
