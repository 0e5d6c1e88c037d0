public import MusterRuntime

/// The roles of PoP's people: organisers, who see their organisation's civics progress and
/// export its newsletter list.
public enum PoPRole: String, AppRole {
    case organiser
    public static var app: String { PoPRoutes.app }
}
