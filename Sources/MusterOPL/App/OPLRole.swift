public import MusterRuntime

/// The roles of OPL's people: moderators, who decide on submissions at `/moderation`.
public enum OPLRole: String, AppRole {
    case moderator
    public static var app: String { OPLScopes.app }
}
