package import MusterRuntime

/// The roles of PoP's people: organisers, who see their organisation's civics progress and
/// export its newsletter list.
package enum PoPRole: String, AppRole {
    case organiser
    package static var app: String { PoPRoutes.app }
}
