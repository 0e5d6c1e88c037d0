import MusterPlatform
import MusterRuntime

/// The roles of the field app's people: workers on site, and the managers who approve their time.
package enum FieldRole: String, AppRole {
    case worker, manager
    package static var app: String { "field" }
}

/// The roles' names as tokens and events carry them.
package enum FieldRoles {
    package static let worker = FieldRole.worker.rawValue, manager = FieldRole.manager.rawValue
    package static let all: Set<String> = Set(FieldRole.allCases.map(\.rawValue))
}

extension AccessRule {
    /// A worker or a manager of a field company: most of the app's routes.
    static let fieldPerson = AccessRule.person(anyRoleOf: FieldRole.self)
}
