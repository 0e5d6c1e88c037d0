import MusterRuntime

/// The roles of OPL's people: moderators, who decide on submissions at `/moderation`.
package enum OPLRole: String, AppRole {
    case moderator
    package static var app: String { OPLScopes.app }
}
