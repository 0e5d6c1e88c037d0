import MusterRuntime

/// The roles of OFFLEASH's people in a business: its customers, its walkers, its admins, and the
/// owner who started it (who may do whatever an admin may).
package enum OFFLEASHRole: String, AppRole {
    case customer, walker, admin, owner
    package static var app: String { OFFLEASHApp.appName }

    package func satisfies(_ required: OFFLEASHRole) -> Bool {
        self == required || (self == .owner && required == .admin)
    }
}

extension AccessRule {
    /// A person of OFFLEASH in any role: most of the app's routes.
    static let offleashPerson = AccessRule.person(anyRoleOf: OFFLEASHRole.self)
}
