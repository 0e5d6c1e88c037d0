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
    /// The shared projections this service runs (see `MusterProcess.modules`).
    let runners: [any Service]

    public init(platform: PlatformKit, opl: OPLKit, runners: [any Service]) {
        self.platform = platform
        self.opl = opl
        self.runners = runners
    }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        runners
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
