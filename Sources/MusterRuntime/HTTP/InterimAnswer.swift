public import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// An informational answer (1xx) sent the moment a request's head arrives, before its body and
/// before the router: what the IETF resumable-upload draft's `104 Upload Resumption Supported`
/// needs, since a Hummingbird route answers once, at the end. Given the head, `answer` returns the
/// 1xx and the head to pass on, which may carry what the 1xx promised (an upload's location) in
/// `reserved`; nil passes the request on as it came.
public struct InterimAnswer: Sendable {
    public let name: String
    /// A header only this answer sets: taken off every request that arrives, so a route may trust it.
    public let reserved: HTTPField.Name
    public let answer: @Sendable (HTTPRequest) -> (interim: HTTPResponse, request: HTTPRequest)?

    public init(name: String, reserved: HTTPField.Name, answer: @escaping @Sendable (HTTPRequest) -> (interim: HTTPResponse, request: HTTPRequest)?) {
        self.name = name
        self.reserved = reserved
        self.answer = answer
    }
}

/// Sends interim answers in the channel pipeline. Only when no earlier request on the connection
/// is still being answered: a 1xx must not land in the middle of another request's response (a
/// pipelined request then goes without one, and the client simply cannot resume it automatically).
final class InterimAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let answers: [InterimAnswer]
    /// Requests passed on whose response has not ended yet.
    private var inFlight = 0

    init(answers: [InterimAnswer]) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        for answer in answers { request.headerFields[answer.reserved] = nil }
        if inFlight == 0, let (interim, passed) = firstAnswer(request) {
            context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            request = passed
        }
        inFlight += 1
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    private func firstAnswer(_ request: HTTPRequest) -> (HTTPResponse, HTTPRequest)? {
        for answer in answers {
            if let answered = answer.answer(request) { return answered }
        }
        return nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inFlight = max(0, inFlight - 1) }
        context.write(data, promise: promise)
    }
}

extension InterimAnswerHandler {
    /// The handlers for one connection, or none when no module sends interim answers.
    static func handlers(_ answers: [InterimAnswer]) -> @Sendable () -> [any RemovableChannelHandler] {
        guard !answers.isEmpty else { return { [] } }
        return { [InterimAnswerHandler(answers: answers)] }
    }
}
