import Hummingbird
import MusterAnalytics
import MusterOPL
import MusterPlatform
import MusterRuntime
import ServiceLifecycle

/// query: runs the projections and serves them over HTTP. Reads only.
public struct QueryService: MusterServiceModule {
    public let name = "query"
    public let summary = "projections over HTTP"
    let shared: SharedParts
    let analytics: AnalyticsKit
    var platform: PlatformKit { shared.platform }
    var opl: OPLKit { shared.opl }

    public init(_ shared: SharedParts, analytics: AnalyticsKit) {
        self.shared = shared
        self.analytics = analytics
    }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        shared.runners
    }

    public func fastPaths(in environment: MusterEnvironment) -> [FastPath] {
        [MobileReadRoutes.fastPath(keys: platform.directory, rate: opl.readRate, model: opl.model)]
    }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        PlatformRoutes.add(to: routes, keys: platform.directory, environment: environment)
        MobileReadRoutes.add(to: routes, keys: APIKeyMiddleware(keys: platform.directory, scope: OPLScopes.readMobile), rate: opl.readRate,
                             model: opl.model)
        AnalyticsRoutes.add(to: routes, keys: platform.directory, rate: analytics.readRate, model: analytics.model)
        DashboardRoutes.add(to: routes, keys: platform.directory, model: analytics.model)
    }
}
