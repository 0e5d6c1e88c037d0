package import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes

/// An answer that needs no body and no waiting: a conditional GET whose client already holds
/// the current content (304). Given the request head, it returns the response or nil, and nil
/// sends the request down the ordinary async route (which gives the same answer, slower).
package struct FastPath: Sendable {
    package let name: String
    package let answer: @Sendable (HTTPRequest) -> HTTPResponse?

    package init(name: String, answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse?) {
        self.name = name
        self.answer = answer
    }

    /// The first of `paths` that answers. Each path is asked once: an answer may take a
    /// rate-limit token, so asking twice (as `lazy.compactMap(…).first` does) would cost two and
    /// could differ the second time.
    static func firstAnswer(_ paths: [FastPath], _ request: HTTPRequest) -> HTTPResponse? {
        for path in paths {
            if let response = path.answer(request) { return response }
        }
        return nil
    }
}

/// Answers fast paths in the channel pipeline behind the HTTP decoder, before a request becomes
/// a task: on the connections `FastPathListener` (ahead of the decoder) has handed over.
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
            if inFlight == 0, request.method == .get, request.headerFields[.connection] == nil,
               let response = FastPath.firstAnswer(paths, request) {
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

    /// No request is with the router or held here: an answer written now comes in order.
    var isIdle: Bool { inFlight == 0 && held == nil }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inFlight = max(0, inFlight - 1) }
        context.write(data, promise: promise)
    }
}

extension FastPath {
    /// The fast paths of one server, for each connection: the listener ahead of the HTTP decoder
    /// and the handler behind it, counting their answers together; none when no module offers one.
    static func handlers(_ paths: [FastPath]) -> (listener: @Sendable () -> FastPathListener?,
                                                 behindDecoder: @Sendable () -> [any RemovableChannelHandler]) {
        guard !paths.isEmpty else { return ({ nil }, { [] }) }
        let counter = Counter(label: "muster_http_fast_path_answers_total")
        return ({ FastPathListener(paths: paths, answered: counter) }, { [FastPathHandler(paths: paths, answered: counter)] })
    }
}
