import Hummingbird
import MusterPlatform
import MusterRuntime
import ServiceLifecycle

/// query: runs the projections and serves them over HTTP. Reads only.
public struct QueryService: MusterServiceModule {
    public let name = "query"
    public let summary = "projections over HTTP"
    let platform: PlatformKit

    public init(platform: PlatformKit) { self.platform = platform }

    public func services(in environment: MusterEnvironment) -> [any Service] { [platform.keys] }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        PlatformRoutes.add(to: routes, keys: platform.keys, environment: environment)
    }
}
