import HTTPTypes
import HummingbirdCore
import Logging
import Metrics
import NIOCore

/// The fast paths ahead of the HTTP decoder, first in a connection's pipeline: a read that holds
/// one plain GET head (`PlainGetHead`) which a fast path answers is answered from its bytes with
/// bytes, and no HTTP part, header list or task is made. A plain GET head no path answers goes to
/// the decoder whole, so the decoder is back at a request's start after it, and the listener
/// stays (a gateway's pooled keep-alive connection carries every kind of GET). It answers only
/// while `FastPathHandler` behind the decoder has no request with the router, so answers stay in
/// order. The first read that is anything else (another method, half a head, two requests in one
/// read, a body) goes to the decoder and so does everything after it: the listener leaves the
/// pipeline, and `FastPathHandler` answers that connection's polls from then on. (Under wrk on two
/// cores: 79k polls/s answered here, 46-49k behind the decoder, 87-91k for nginx's 304 of a file.)
final class FastPathListener: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let paths: [FastPath]
    let answered: Counter
    /// The handler behind the decoder that answers there, found at the first read (the pipeline
    /// is built after this handler), and the connection's gate ahead, told of every request
    /// answered here.
    private var behind: FastPathHandler?
    private var gate: ConnectionGate?
    private var foundBehind = false
    /// Whether a read went past this handler since the last read-complete. When none did, the
    /// handlers behind have nothing to complete, and the event stops here: passing it through
    /// all of them was 3.4 % of a 304.
    private var forwardedRead = false

    init(paths: [FastPath], answered: Counter) {
        self.paths = paths
        self.answered = answered
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let head = buffer.withUnsafeReadableBytes({ PlainGetHead($0) }) else {
            // The decoder may now hold part of a request: it keeps the connection.
            forwardedRead = true
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        if !foundBehind { findBehind(context.pipeline.syncOperations) }
        // A client that does not take its answers gets none from here: the decoder's way holds
        // its reads back instead of queueing answers without bound.
        if context.channel.isWritable, behind?.isIdle == true, let response = FastPath.firstAnswer(paths, head.request) {
            answered.increment()
            gate?.answered()
            var bytes = context.channel.allocator.buffer(capacity: 256)
            bytes.writeHead(of: response)
            context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
            return
        }
        forwardedRead = true
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard forwardedRead else { return }
        forwardedRead = false
        context.fireChannelReadComplete()
    }

    private func findBehind(_ pipeline: ChannelPipeline.SynchronousOperations) {
        foundBehind = true
        behind = try? pipeline.handler(type: FastPathHandler.self)
        gate = try? pipeline.handler(type: ConnectionGate.self)
    }
}

extension ByteBuffer {
    /// A bodiless response's head as HTTP/1.1 writes it (status line, fields, blank line). A
    /// status that may carry a body says it has none, as the HTTP encoder would.
    mutating func writeHead(of response: HTTPResponse) {
        // Piece by piece: an interpolated status line costs a String a response.
        // `status` is read once: HTTPTypes parses it from the `:status` pseudo field at each read.
        let status = response.status
        writeStaticString("HTTP/1.1 ")
        let code = status.code
        writeInteger(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: code / 100 % 10))
        writeInteger(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: code / 10 % 10))
        writeInteger(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: code % 10))
        writeStaticString(" ")
        writeString(status.reasonPhrase)
        writeStaticString("\r\n")
        let bodiless = status == .noContent || status == .notModified
        if !bodiless, response.headerFields[.contentLength] == nil { writeString("Content-Length: 0\r\n") }
        for field in response.headerFields {
            writeString(field.name.rawName)
            writeStaticString(": ")
            writeString(field.value)
            writeStaticString("\r\n")
        }
        writeStaticString("\r\n")
    }
}

/// A server child channel with a `FastPathListener` first in the pipeline, ahead of everything
/// `Base` (Hummingbird's HTTP/1 channel, with or without WebSocket upgrades) sets up.
struct FastPathChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let gate: @Sendable () -> ConnectionGate
    let listener: @Sendable () -> FastPathListener?

    /// Reads of up to 512 KB on a connection that fills them (an upload), not NIO's 64 KB: each
    /// read is a trip through the decoder and a hop to the request's task.
    static var reads: AdaptiveRecvByteBufferAllocator { AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 512 << 10) }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.reads)
            try channel.pipeline.syncOperations.addHandler(gate())
            if let listener = listener() { try channel.pipeline.syncOperations.addHandler(listener) }
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
