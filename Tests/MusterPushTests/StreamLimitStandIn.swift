import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// An APNs stand-in built on swift-nio-http2 directly, for what Hummingbird's HTTP/2 server cannot
/// do: advertise a small SETTINGS_MAX_CONCURRENT_STREAMS and lower it on a live connection, as
/// APNs does. It answers every push 200 after a short pause (so streams overlap), or holds the
/// answers until told, and records how many were open at once.
final class StreamLimitStandIn: Sendable {
    struct Counts: Sendable {
        var open = 0
        var mostOpen = 0
        var answered = 0
        /// The most streams open at once since `resetMost`.
        mutating func opened() {
            open += 1
            mostOpen = max(mostOpen, open)
        }
    }

    /// Shared with the listener and every stream's handler.
    final class Recorder: Sendable {
        let counts = Mutex(Counts())
        let connections = Mutex<[any Channel]>([])
        /// While holding, the streams that ended wait here for `release` instead of a timer.
        let held = Mutex<(holding: Bool, streams: [NIOLoopBound<(ChannelHandlerContext, Answer)>])>((false, []))
    }

    let recorder = Recorder()
    /// How long a push is held before its answer, unless held until `release`.
    static let answerDelay = TimeAmount.milliseconds(20)
    private let listener: any Channel
    let port: Int

    init(certificate: String, key: String, streams: Int) async throws {
        var tls = try TLSConfiguration.makeServerConfiguration(certificateChain: NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                                                               privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: streams),
                        HTTP2Setting(parameter: .initialWindowSize, value: 1 << 20)]
        let recorder = self.recorder
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server, initialLocalSettings: settings) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([HTTP2FramePayloadToHTTP1ServerCodec(), Answer(recorder: recorder)])
                        }
                    }.map { _ in
                        // Counted once it speaks HTTP/2: only then can it take a SETTINGS frame.
                        recorder.connections.withLock { $0.append(channel) }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
    }

    var url: String { "https://127.0.0.1:\(port)" }

    /// Lowers the stream limit on every open connection (a SETTINGS frame, as APNs sends one).
    func lowerLimit(to streams: Int) async throws {
        let frame = HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: streams)])))
        var sent = 0
        for channel in recorder.connections.withLock({ $0 }) where channel.isActive {
            // A connection the client closed meanwhile has nothing to lower.
            if (try? await channel.writeAndFlush(frame)) != nil { sent += 1 }
        }
        guard sent > 0 else { throw StandInError("no open HTTP/2 connection to lower the stream limit on") }
    }

    var counts: Counts { recorder.counts.withLock { $0 } }
    var connectionCount: Int { recorder.connections.withLock { $0.count } }
    func resetMost() { recorder.counts.withLock { $0.mostOpen = $0.open } }
    /// Holds every push from now on until `release`: its stream stays open however long a loaded
    /// machine takes to look (a timed pause let a whole burst pass between two looks).
    func hold() { recorder.held.withLock { $0.holding = true } }

    /// Answers the held pushes now, and the ones after them after the usual pause.
    func release() {
        let streams = recorder.held.withLock { held in
            defer { held = (false, []) }
            return held.streams
        }
        for stream in streams { stream.eventLoop.execute { Answer.respond(stream.value) } }
    }

    func close() async throws {
        for channel in recorder.connections.withLock({ $0 }) { try? await channel.close() }
        try await listener.close()
    }

    /// One stream: counts it open at its head, answers 200 with an apns-id a pause after its end.
    final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let recorder: Recorder

        init(recorder: Recorder) { self.recorder = recorder }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head:
                recorder.counts.withLock { $0.opened() }
            case .body:
                break
            case .end:
                let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
                let held = recorder.held.withLock { held in
                    if held.holding { held.streams.append(bound) }
                    return held.holding
                }
                guard !held else { return }
                context.eventLoop.scheduleTask(in: StreamLimitStandIn.answerDelay) {
                    Self.respond(bound.value)
                }
            }
        }

        /// Answers one stream 200 with an apns-id (on its event loop).
        static func respond(_ stream: (ChannelHandlerContext, Answer)) {
            let (context, handler) = stream
            handler.recorder.counts.withLock { $0.open -= 1; $0.answered += 1 }
            let head = HTTPResponseHead(version: .http2, status: .ok, headers: ["apns-id": UUID().uuidString])
            context.write(handler.wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

struct StandInError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
