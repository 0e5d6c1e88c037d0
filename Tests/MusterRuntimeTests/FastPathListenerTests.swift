import HTTPTypes
import Metrics
@testable import MusterRuntime
import NIOCore
import NIOEmbedded
import Testing

/// The listener ahead of the HTTP decoder, on an embedded channel: what it answers itself, and
/// that it hands everything else, and the rest of the connection, to the decoder.
@Suite("Fast path listener")
struct FastPathListenerTests {
    static let paths = [FastPath(name: "test") { request in
        request.path == "/hit" ? HTTPResponse(status: .notModified, headerFields: [.eTag: "\"x\""]) : nil
    }]

    /// What passes the listener: reads and events, as the decoder would get them.
    final class Behind: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var reads: [String] = []
        var answered = 0
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { reads.append(String(buffer: unwrapInboundIn(data))) }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) { if event is FastPathListener.Answered { answered += 1 } }
    }

    static func channel() throws -> (EmbeddedChannel, Behind) {
        let behind = Behind()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([FastPathListener(paths: paths, answered: Counter(label: "test")), behind])
        return (channel, behind)
    }

    @Test func answersPollsItselfUntilSomethingElseComes() throws {
        let (channel, behind) = try Self.channel()
        let hit = "GET /hit HTTP/1.1\r\nHost: x\r\n\r\n"
        for _ in 0..<2 {
            try channel.writeInbound(ByteBuffer(string: hit))
            #expect(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } == "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n")
        }
        #expect(behind.reads.isEmpty && behind.answered == 2)
        // A head no path answers goes on, and so does everything after it, answered or not.
        try channel.writeInbound(ByteBuffer(string: "GET /miss HTTP/1.1\r\n\r\n"))
        try channel.writeInbound(ByteBuffer(string: hit))
        #expect(behind.reads == ["GET /miss HTTP/1.1\r\n\r\n", hit])
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.context(handlerType: FastPathListener.self) }
        _ = try channel.finish()
    }

    @Test func halfAHeadGoesToTheDecoder() throws {
        let (channel, behind) = try Self.channel()
        try channel.writeInbound(ByteBuffer(string: "GET /hit HTTP/1.1\r\n"))
        try channel.writeInbound(ByteBuffer(string: "\r\n"))
        #expect(behind.reads == ["GET /hit HTTP/1.1\r\n", "\r\n"] && behind.answered == 0)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        _ = try channel.finish()
    }

    @Test func anAnswerThatMayHaveABodySaysItHasNone() {
        var bytes = ByteBuffer()
        bytes.writeHead(of: HTTPResponse(status: .ok, headerFields: [.cacheControl: "no-cache"]))
        #expect(String(buffer: bytes) == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nCache-Control: no-cache\r\n\r\n")
    }
}
