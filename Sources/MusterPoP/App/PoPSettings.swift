import MusterRuntime

/// PoP's own settings: its configuration folder, `orgs.json` (organisations, their state and
/// decks) and `decks/` (one JSON file a deck), so a second state or organisation is data, not
/// code; the organisation a sign-in without `org_slug` means; and which app ids Sign in with
/// Apple's tokens must name.
package struct PoPSettings: AppSettings, Equatable {
    package var configPath = "deploy/pop"
    package var defaultOrg = "pop-sd"
    package var appleAudiences = ["com.peopleoverpartysd.pop"]

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case configPath = "MUSTER_POP_CONFIG"
        case defaultOrg = "MUSTER_POP_DEFAULT_ORG"
        case appleAudiences = "MUSTER_POP_APPLE_AUDIENCES"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .configPath:
            guard !value.isEmpty else { throw ConfigurationError("must name a folder") }
            configPath = value
        case .defaultOrg:
            guard !value.isEmpty, value.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }) else {
                throw ConfigurationError("must be an organisation's slug (lowercase letters, digits and -)")
            }
            defaultOrg = value
        case .appleAudiences: appleAudiences = try SettingValue.list(value, of: "app id")
        }
    }
}
