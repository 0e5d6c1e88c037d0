public import MusterRuntime

/// The roles of OFFLEASH's people in a business: its customers, its walkers, its admins, and the
/// owner who started it (who may do whatever an admin may).
public enum OFFLEASHRole: String, AppRole {
    case customer, walker, admin, owner
    public static var app: String { OFFLEASHApp.appName }

    public func satisfies(_ required: OFFLEASHRole) -> Bool {
        self == required || (self == .owner && required == .admin)
    }
}

extension AccessRule {
    /// A person of OFFLEASH in any role: most of the app's routes.
    static let offleashPerson = AccessRule.person(anyRoleOf: OFFLEASHRole.self)
}
