import ServiceLifecycle

/// What the app-facing services of one process share: the keys and OPL projections, and which
/// of their runners this service runs (a projection several services read runs once, in the
/// first of them; see `MusterProcess.modules`).
public struct SharedParts: Sendable {
    public let platform: PlatformKit
    public let opl: OPLKit
    public let runners: [any Service]

    public init(platform: PlatformKit, opl: OPLKit, runners: [any Service]) {
        self.platform = platform
        self.opl = opl
        self.runners = runners
    }
}
