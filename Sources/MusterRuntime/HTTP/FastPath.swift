public import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes

/// An answer that needs no body and no waiting: a conditional GET whose client already holds
/// the current content (304). Given the request head, it returns the response or nil, and nil
/// sends the request down the ordinary async route (which gives the same answer, slower).
public struct FastPath: Sendable {
    public let name: String
    public let answer: @Sendable (HTTPRequest) -> HTTPResponse?

    public init(name: String, answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse?) {
        self.name = name
        self.answer = answer
    }
}

/// Answers fast paths in the channel pipeline, before a request becomes a task: the hot path of
/// the OPL clients (a repeated GET with a matching hash) then costs what nginx's 304 costs.
///
/// Order is kept: a request is answered here only when no earlier request on the connection is
/// still with the router (Hummingbird does not hold pipelined requests back).
final class FastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let paths: [FastPath]
    let answered: Counter
    /// Requests handed to the router whose response has not ended yet.
    private var inFlight = 0
    /// A request answered here, waiting for its end.
    private var held: (request: HTTPRequest, response: HTTPResponse)?

    init(paths: [FastPath], answered: Counter) {
        self.paths = paths
        self.answered = answered
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            // Each path is asked once: an answer may take a rate-limit token, so asking twice
            // (as `lazy.compactMap(…).first` does) would cost two and could differ the second time.
            if inFlight == 0, request.method == .get, request.headerFields[.connection] == nil, let response = firstAnswer(request) {
                held = (request, response)
                return
            }
            inFlight += 1
            context.fireChannelRead(data)
        case .body:
            if let (request, _) = held { // a GET with a body: the router decides after all
                held = nil
                inFlight += 1
                context.fireChannelRead(wrapInboundOut(.head(request)))
            }
            context.fireChannelRead(data)
        case .end:
            guard let (_, response) = held else { return context.fireChannelRead(data) }
            held = nil
            answered.increment()
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func firstAnswer(_ request: HTTPRequest) -> HTTPResponse? {
        for path in paths {
            if let response = path.answer(request) { return response }
        }
        return nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inFlight = max(0, inFlight - 1) }
        context.write(data, promise: promise)
    }
}

extension FastPathHandler {
    /// The handlers for one connection, or none when no module offers a fast path.
    static func handlers(_ paths: [FastPath]) -> @Sendable () -> [any RemovableChannelHandler] {
        guard !paths.isEmpty else { return { [] } }
        let counter = Counter(label: "muster_http_fast_path_answers_total")
        return { [FastPathHandler(paths: paths, answered: counter)] }
    }
}
