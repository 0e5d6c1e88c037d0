import MusterRuntime

/// A ShieldAI thing's owner (a person of the app, or an installation) as `Access.permits` sees it.
extension Owner {
    var resource: ResourceOwner { ResourceOwner(app: ShieldAIApp.appName, personId: personId, deviceId: deviceId) }
}

/// Who asks for ShieldAI's things: the owner they act as, and the principal that proved it (the
/// person the route admitted, or the installation its secret proved).
struct Asking: Sendable {
    var owner: Owner
    var principal: Principal
}
