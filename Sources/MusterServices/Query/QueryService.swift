import Hummingbird
import MusterOPL
import MusterPlatform
import MusterRuntime
import ServiceLifecycle

/// query: runs the projections and serves them over HTTP. Reads only.
public struct QueryService: MusterServiceModule {
    public let name = "query"
    public let summary = "projections over HTTP"
    let platform: PlatformKit
    let opl: OPLKit
    let runsKeys: Bool
    let runsOPL: Bool

    public init(platform: PlatformKit, opl: OPLKit, runsKeys: Bool = true, runsOPL: Bool = true) {
        self.platform = platform
        self.opl = opl
        self.runsKeys = runsKeys
        self.runsOPL = runsOPL
    }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        (runsKeys ? [platform.keys] : []) + (runsOPL ? [opl.runner] : [])
    }

    public func fastPaths(in environment: MusterEnvironment) -> [FastPath] {
        [MobileReadRoutes.fastPath(keys: platform.directory, rate: opl.readRate, model: opl.model)]
    }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        PlatformRoutes.add(to: routes, keys: platform.directory, environment: environment)
        MobileReadRoutes.add(to: routes, keys: APIKeyMiddleware(keys: platform.directory, scope: OPLScopes.readMobile), rate: opl.readRate,
                             model: opl.model)
    }
}
