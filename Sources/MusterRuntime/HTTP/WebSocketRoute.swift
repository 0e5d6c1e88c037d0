package import HTTPTypes
package import HummingbirdWebSocket
package import Logging

/// A WebSocket endpoint an app serves on the process's HTTP port. The upgrade is decided from the
/// request head alone: the authentication step proves its credentials and `access` admits the
/// caller as for any route, then `accept` answers the session to run, or why not, which the client
/// gets as the same JSON error a plain request would (401 for a bad token, 422 for a bad cursor),
/// not the framework's empty 400. A plain GET at the path goes to the router.
package struct WebSocketRoute: Sendable {
    package typealias Session = @Sendable (WebSocketInboundStream, WebSocketOutboundWriter, Logger) async throws -> Void

    package enum Answer: Sendable {
        case session(Session)
        case refused(APIError)
    }

    package let path: String
    package let access: AccessRule
    /// The session for an admitted caller: the request's head and what its credentials proved.
    package let accept: @Sendable (HTTPRequest, Caller) async -> Answer

    package init(path: String, access: AccessRule, accept: @escaping @Sendable (HTTPRequest, Caller) async -> Answer) {
        self.path = path
        self.access = access
        self.accept = accept
    }

    /// What `routes` answer `request`; nil when it asks for none of them.
    static func answer(for request: HTTPRequest, in routes: [WebSocketRoute], authenticator: any RequestAuthenticator) async -> Answer? {
        guard request.method == .get, let target = request.path else { return nil }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        guard let route = routes.first(where: { $0.path == path }) else { return nil }
        let caller = await authenticator.caller(of: request.headerFields)
        do {
            _ = try route.access.admit(caller)
        } catch let error as APIError {
            return .refused(error)
        } catch let error as any HTTPMappedError {
            return .refused(error.apiError)
        } catch {
            return .refused(APIError.logUnavailable)
        }
        return await route.accept(request, caller)
    }
}
