package import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// An informational answer (1xx) sent the moment a request's head arrives, before its body and
/// before the router: what the IETF resumable-upload draft's `104 Upload Resumption Supported`
/// needs, since a Hummingbird route answers once, at the end. Given the head, `answer` returns the
/// 1xx and the head to pass on, which may carry what the 1xx promised (an upload's location) in
/// `reserved`; nil passes the request on as it came.
package struct InterimAnswer: Sendable {
    package let name: String
    /// A header only this answer sets: taken off every request that arrives, so a route may trust it.
    package let reserved: HTTPField.Name
    package let answer: @Sendable (HTTPRequest) -> (interim: HTTPResponse, request: HTTPRequest)?

    package init(name: String, reserved: HTTPField.Name, answer: @escaping @Sendable (HTTPRequest) -> (interim: HTTPResponse, request: HTTPRequest)?) {
        self.name = name
        self.reserved = reserved
        self.answer = answer
    }
}

/// Sends interim answers in the channel pipeline: `100 Continue` to a request that expects one
/// (`Expect: 100-continue`, which curl sends with every body over 1 MB and then waits a second
/// for; Hummingbird answers only at the end), and the modules' `InterimAnswer`s. Only when no
/// earlier request on the connection is still being answered: a 1xx must not land in the middle
/// of another request's response (a pipelined request then goes without one, and the client
/// simply cannot resume it automatically, or sends its body after its own wait).
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
        if inFlight == 0, let expectation = request.headerFields[.expect] {
            // RFC 9110 §10.1.1: answer the expectation at once; the route's answer follows the body.
            if expectation.lowercased() == "100-continue" { context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil) }
            request.headerFields[.expect] = nil
        }
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
    /// The handler for one connection (every connection has one: any request may expect `100 Continue`).
    static func handlers(_ answers: [InterimAnswer]) -> @Sendable () -> [any RemovableChannelHandler] {
        { [InterimAnswerHandler(answers: answers)] }
    }
}
