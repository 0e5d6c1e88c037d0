public import Hummingbird
import Synchronization

/// Every route the process serves, recorded as it is added, so a test can hold the router and
/// `schemas/openapi.yaml` to each other.
public final class RouteTable: Sendable {
    public struct Route: Sendable, Hashable, Comparable {
        public var method: String
        /// OpenAPI form: `/api/platform/whoami/{scope}`.
        public var path: String
        public static func < (a: Route, b: Route) -> Bool { (a.path, a.method) < (b.path, b.method) }
    }

    private let recorded = Mutex<Set<Route>>([])
    public init() {}

    public var routes: [Route] { recorded.withLock { $0.sorted() } }

    /// The methods some route serves at `path` (`{name}` segments match any one segment), for a
    /// 405's `Allow` when the path exists but the method does not.
    public func allowedMethods(at path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return recorded.withLock { routes in
            Set(routes.filter { route in
                let pattern = route.path.split(separator: "/", omittingEmptySubsequences: false)
                return pattern.count == segments.count
                    && zip(pattern, segments).allSatisfy { p, s in p == s || (p.hasPrefix("{") && p.hasSuffix("}") && !s.isEmpty) }
            }.map { $0.method.uppercased() }).sorted()
        }
    }

    func record(_ method: HTTPRequest.Method, _ path: String) {
        // Hummingbird writes parameters as `:name`; OpenAPI as `{name}`.
        let openAPIPath = "/" + path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
        recorded.withLock { _ = $0.insert(Route(method: method.rawValue.lowercased(), path: openAPIPath)) }
    }
}

/// Adds routes to a router (or group) and records them in the route table.
public struct Routes<Router: RouterMethods> {
    public typealias Context = Router.Context
    let router: Router
    let table: RouteTable
    let prefix: String

    public init(_ router: Router, table: RouteTable, prefix: String = "") {
        self.router = router
        self.table = table
        self.prefix = prefix
    }

    /// Routes below `path` with `middleware` in front of them.
    public func group(_ path: String = "", middleware: [any MiddlewareProtocol<Request, Response, Context>] = []) -> Routes<RouterGroup<Context>> {
        var group = router.group(RouterPath(path))
        for m in middleware { group = group.add(middleware: m) }
        return Routes<RouterGroup<Context>>(group, table: table, prefix: prefix + path)
    }

    public func on(_ method: HTTPRequest.Method, _ path: String,
                   use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        table.record(method, prefix + path)
        router.on(RouterPath(path), method: method, use: handler)
    }

    public func get(_ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        on(.get, path, use: handler)
    }

    public func post(_ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        on(.post, path, use: handler)
    }

    public func delete(_ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        on(.delete, path, use: handler)
    }

    public func put(_ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        on(.put, path, use: handler)
    }

    public func patch(_ path: String, use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        on(.patch, path, use: handler)
    }
}
