package import Hummingbird
import Synchronization

/// Every route the process serves, recorded with its access rule as it is added, so a test can
/// hold the router and `schemas/openapi.yaml` to each other, and the process can refuse to start
/// with a route nobody declared access for (`requireDeclared`).
package final class RouteTable: Sendable {
    package struct Route: Sendable, Hashable, Comparable {
        package var method: String
        /// OpenAPI form: `/api/platform/whoami/{scope}`.
        package var path: String
        package static func < (a: Route, b: Route) -> Bool { (a.path, a.method) < (b.path, b.method) }

        package init(method: String, path: String) {
            self.method = method
            self.path = path
        }
    }

    private let recorded = Mutex<[Route: AccessRule]>([:])
    package init() {}

    package var routes: [Route] { recorded.withLock { $0.keys.sorted() } }

    /// Each route's declared rule.
    package var rules: [Route: AccessRule] { recorded.withLock { $0 } }

    /// The methods some route serves at `path` (`{name}` segments match any one segment), for a
    /// 405's `Allow` when the path exists but the method does not.
    package func allowedMethods(at path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return recorded.withLock { routes in
            Set(routes.keys.filter { route in
                let pattern = route.path.split(separator: "/", omittingEmptySubsequences: false)
                return pattern.count == segments.count
                    && zip(pattern, segments).allSatisfy { p, s in p == s || (p.hasPrefix("{") && p.hasSuffix("}") && !s.isEmpty) }
            }.map { $0.method.uppercased() }).sorted()
        }
    }

    /// Records a route and who may call it (a WebSocket's upgrade too: `WebSocketRoute`).
    package func record(_ method: HTTPRequest.Method, _ path: String, access: AccessRule) {
        recorded.withLock { $0[Route(method: method.rawValue.lowercased(), path: Self.openAPIPath(path))] = access }
    }

    /// Hummingbird writes parameters as `:name` (or `{name}`); OpenAPI as `{name}`.
    static func openAPIPath(_ path: String) -> String {
        "/" + path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    /// Throws when `router` serves a route this table holds no access rule for: one added around
    /// `Routes`, which would answer whoever calls. The process then does not start.
    package func requireDeclared<Context>(_ router: Router<Context>) throws {
        let declared = recorded.withLock { Set($0.keys) }
        let undeclared = router.routes.map { Route(method: $0.method.rawValue.lowercased(), path: Self.openAPIPath($0.path.description)) }
            .filter { !declared.contains($0) }
        guard undeclared.isEmpty else { throw UndeclaredAccess(routes: undeclared.sorted()) }
    }
}

/// Routes served without a declared access rule: a programming error that stops the process
/// before it takes traffic, naming each.
package struct UndeclaredAccess: Error, CustomStringConvertible {
    package var routes: [RouteTable.Route]
    package var description: String {
        "routes without an access rule: " + routes.map { "\($0.method.uppercased()) \($0.path)" }.joined(separator: ", ")
    }
}

/// Adds routes to a router (or group) and records them in the route table.
package struct Routes<Router: RouterMethods> {
    package typealias Context = Router.Context
    let router: Router
    let table: RouteTable
    let prefix: String

    package init(_ router: Router, table: RouteTable, prefix: String = "") {
        self.router = router
        self.table = table
        self.prefix = prefix
    }

    /// Routes below `path` with `middleware` in front of them.
    package func group(_ path: String = "", middleware: [any MiddlewareProtocol<Request, Response, Context>] = []) -> Routes<RouterGroup<Context>> {
        var group = router.group(RouterPath(path))
        for m in middleware { group = group.add(middleware: m) }
        return Routes<RouterGroup<Context>>(group, table: table, prefix: prefix + path)
    }

    /// Adds a route that `access` admits callers to: the rule is checked against the request's
    /// `Caller` before `handler` runs, and the principal it admits is the context's `principal`.
    package func on(_ method: HTTPRequest.Method, _ path: String, access: AccessRule,
                   use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) where Context == MusterRequestContext {
        table.record(method, prefix + path, access: access)
        let formCheck = method == .post ? access.formCheck : .none
        router.on(RouterPath(path), method: method) { request, context in
            var context = context
            context.principal = try access.admit(context.caller)
            guard formCheck != .none else { return try await handler(request, context) }
            var request = request
            try await PageForms.verify(&request, formCheck)
            return try await handler(request, context)
        }
    }

    /// Adds a route declared as `access` whose handler admits the caller itself (tRPC, whose
    /// refusals have a shape of their own).
    func on(_ method: HTTPRequest.Method, _ path: String, admittingItself access: AccessRule,
            use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) {
        table.record(method, prefix + path, access: access)
        router.on(RouterPath(path), method: method, use: handler)
    }

    package func get(_ path: String, access: AccessRule,
                    use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) where Context == MusterRequestContext {
        on(.get, path, access: access, use: handler)
    }

    package func post(_ path: String, access: AccessRule,
                     use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) where Context == MusterRequestContext {
        on(.post, path, access: access, use: handler)
    }

    package func delete(_ path: String, access: AccessRule,
                       use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) where Context == MusterRequestContext {
        on(.delete, path, access: access, use: handler)
    }

    package func put(_ path: String, access: AccessRule,
                    use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) where Context == MusterRequestContext {
        on(.put, path, access: access, use: handler)
    }

    package func patch(_ path: String, access: AccessRule,
                      use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) where Context == MusterRequestContext {
        on(.patch, path, access: access, use: handler)
    }
}
