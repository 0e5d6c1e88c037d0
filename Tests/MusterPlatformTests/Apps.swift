import MusterAppTesting
import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime

/// An app built on tRPC, as ShieldAI is: it registers its installations through the platform's
/// registry under its own procedure name.
struct TRPCApp: MusterApp {
    let name = "shieldai"
    let roles = ["customer"]
    var kind: AppKind { .clientApp }
    var events: EventCatalog { EventCatalog() }
    var projections: [any Projection.Type] { [] }
    var scopes: [String] { [] }

    func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        guard role == .ingest else { return }
        let devices = Devices.shared(in: environment)
        parts.routes.append { DeviceRoutes.addTRPC("notification.registerDevice", to: $0, devices: devices) }
    }
}

/// What these tests compose: the platform, and two apps it has never heard of by name.
let apps = MusterApps([PlatformApp(), TRPCApp(), ClientApp(name: "opl", roles: ["moderator"])])
