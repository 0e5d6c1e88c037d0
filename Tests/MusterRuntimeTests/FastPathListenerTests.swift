import HTTPTypes
import Metrics
@testable import MusterRuntime
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization
import Testing

/// The listener ahead of the HTTP decoder, on an embedded channel with NIO's real HTTP handlers
/// behind it: what it answers itself, what it leaves to the decoder, and that answers keep the
/// order of the requests.
@Suite("Fast path listener")
struct FastPathListenerTests {
    static let paths = [FastPath(name: "test") { request in
        request.path == "/hit" ? HTTPResponse(status: .notModified, headerFields: [.eTag: "\"x\""]) : nil
    }]
    static let notModified = "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"

    /// The router's stand-in: it records the requests that reach it and answers when told.
    final class Router: ChannelInboundHandler {
        typealias InboundIn = HTTPRequestPart
        typealias OutboundOut = HTTPResponsePart
        var paths: [String] = []
        var readsCompleted = 0
        var context: ChannelHandlerContext?
        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let request) = unwrapInboundIn(data) { paths.append(request.path ?? "") }
        }
        func channelReadComplete(context: ChannelHandlerContext) { readsCompleted += 1 }
        func answer() {
            guard let context else { return }
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: [.contentLength: "0"]))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// The gate if given, listener, decoder and encoder, HTTPTypes, the guard if given, the
    /// handler behind the decoder, the router: the order of a connection's pipeline.
    static func channel(guardedBy count: ConnectionCount? = nil) throws -> (EmbeddedChannel, Router) {
        let channel = EmbeddedChannel()
        let counter = Counter(label: "test")
        let router = Router()
        let pipeline = channel.pipeline.syncOperations
        if let count { try pipeline.addHandler(ConnectionGate(count: count)) }
        try pipeline.addHandler(FastPathListener(paths: paths, answered: counter))
        try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        if let count { try pipeline.addHandler(ConnectionGuardHandler(limits: count.limits, closed: count.closed)) }
        try pipeline.addHandlers([FastPathHandler(paths: paths, answered: counter), router])
        return (channel, router)
    }

    /// The reasons the guard closed connections for.
    final class Closes: Sendable {
        let reasons = Mutex<[String]>([])
    }

    /// What the server writes back for `text`, read as one read (none when nil).
    static func send(_ text: String?, to channel: EmbeddedChannel) throws -> String {
        if let text { try channel.writeInbound(ByteBuffer(string: text)) }
        var out = ""
        while let bytes = try channel.readOutbound(as: ByteBuffer.self) { out += String(buffer: bytes) }
        return out
    }

    static func listening(_ channel: EmbeddedChannel) -> Bool {
        (try? channel.pipeline.syncOperations.handler(type: FastPathListener.self)) != nil
    }

    static let hit = "GET /hit HTTP/1.1\r\nHost: x\r\n\r\n"
    static let miss = "GET /miss HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func answersPollsInTheOrderOfTheRequests() throws {
        let (channel, router) = try Self.channel()
        #expect(try Self.send(Self.hit, to: channel) == Self.notModified)
        // A GET no path answers goes to the router whole; a poll behind it waits its turn there.
        #expect(try Self.send(Self.miss, to: channel) == "")
        #expect(try Self.send(Self.hit, to: channel) == "")
        #expect(router.paths == ["/miss", "/hit"])
        router.answer()
        router.answer()
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        #expect(try Self.send(nil, to: channel) == ok + ok)
        // Nothing with the router now: the listener, still there, answers again itself.
        #expect(Self.listening(channel))
        #expect(try Self.send(Self.hit, to: channel) == Self.notModified)
        #expect(router.paths == ["/miss", "/hit"])
        _ = try channel.finish()
    }

    @Test func anythingButOnePlainHeadLeavesTheConnectionToTheDecoder() throws {
        for start in ["GET /hit HTTP/1.1\r\n", Self.hit + Self.hit, "POST /hit HTTP/1.1\r\nContent-Length: 0\r\n\r\n"] {
            let (channel, router) = try Self.channel()
            _ = try Self.send(start, to: channel)
            #expect(!Self.listening(channel), "\(start.debugDescription)")
            _ = try Self.send("\r\n", to: channel) // the rest of the half head, if it was one
            #expect(router.paths.count <= 1, "the handler behind the decoder answers polls, the router the rest")
            _ = try channel.finish(acceptAlreadyClosed: true)
        }
    }

    @Test func aReadAnsweredHereCompletesNothingBehind() throws {
        let (channel, router) = try Self.channel()
        #expect(try Self.send(Self.hit, to: channel) == Self.notModified)
        #expect(router.readsCompleted == 0, "nothing went past the listener")
        #expect(try Self.send(Self.miss, to: channel) == "")
        #expect(router.readsCompleted == 1, "a read that went on completes behind")
        _ = try channel.finish()
    }

    @Test func theGateHearsOfEveryAnswerGivenHere() throws {
        // The first head may take 10 s; after an answer, the next is due at once. A gate that
        // did not hear of the answer given ahead of the decoder would still wait out the 10 s.
        var limits = ConnectionLimits()
        limits.idleTimeout = .zero
        let closes = Closes()
        let (channel, _) = try Self.channel(guardedBy: ConnectionCount(limits: limits) { reason in
            closes.reasons.withLock { $0.append(reason) }
        })
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        #expect(closes.reasons.withLock { $0 }.isEmpty)
        #expect(try Self.send(Self.hit, to: channel) == Self.notModified)
        channel.embeddedEventLoop.advanceTime(to: .now() + .seconds(1))
        #expect(closes.reasons.withLock { $0 } == ["idle_timeout"])
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    @Test func anAnswerThatMayHaveABodySaysItHasNone() {
        var bytes = ByteBuffer()
        bytes.writeHead(of: HTTPResponse(status: .ok, headerFields: [.cacheControl: "no-cache"]))
        #expect(String(buffer: bytes) == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nCache-Control: no-cache\r\n\r\n")
    }
}
