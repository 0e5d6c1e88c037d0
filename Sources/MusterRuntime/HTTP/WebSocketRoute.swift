public import HTTPTypes
public import HummingbirdWebSocket
public import Logging

/// A WebSocket endpoint an app serves on the process's HTTP port. The upgrade is decided from the
/// request head alone: `accept` returns the session to run (having checked who asks), or nil to
/// leave the request to the router, where a plain route at the same path answers why not (401, 426).
public struct WebSocketRoute: Sendable {
    public typealias Session = @Sendable (WebSocketInboundStream, WebSocketOutboundWriter, Logger) async throws -> Void

    public let path: String
    public let accept: @Sendable (HTTPRequest) async -> Session?

    public init(path: String, accept: @escaping @Sendable (HTTPRequest) async -> Session?) {
        self.path = path
        self.accept = accept
    }

    /// The session for `request`, when it asks for one of `routes` and is accepted.
    static func session(for request: HTTPRequest, in routes: [WebSocketRoute]) async -> Session? {
        guard request.method == .get, let target = request.path else { return nil }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        guard let route = routes.first(where: { $0.path == path }) else { return nil }
        return await route.accept(request)
    }
}
