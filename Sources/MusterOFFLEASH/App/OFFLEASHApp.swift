public import MusterEvents
public import MusterLog
import MusterPlatform
public import MusterRuntime

/// OFFLEASH, dog-walking bookings: accounts over the platform's people (ingest). Its analytics
/// come through the collector like every app's.
public struct OFFLEASHApp: MusterApp {
    public let name = "offleash"
    public var events: EventCatalog { EventCatalog() }
    public var projections: [any Projection.Type] { [] }
    public var scopes: [String] { [] }
    /// The organisation a request without `org_slug` means.
    static let defaultOrg = "demo"

    public init() {}

    public func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let people = People.shared(in: environment)
            // The app never refreshes: its token lives as long as the old server's (24 h).
            let policy = People.TokenPolicy(app: name, accessLifetime: environment.configuration.offleashTokenLifetime)
            parts.appends([AccountRegistered.self, AccountReleased.self, PersonForgotten.self,
                           SessionStarted.self, SessionRefreshed.self, SessionRevoked.self])
            parts.routes.append { AuthRoutes.add(to: $0, people: people, policy: policy) }
        default:
            break
        }
    }
}
