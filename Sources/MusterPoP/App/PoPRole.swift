import MusterRuntime

/// The roles of PoP's people: learners, who make an account to carry their progress between
/// devices, and organisers, who see their organisation's civics progress and export its
/// newsletter list.
package enum PoPRole: String, AppRole {
    case learner, organiser
    package static var app: String { PoPRoutes.app }
}
