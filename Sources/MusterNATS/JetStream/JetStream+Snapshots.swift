package import Foundation

/// JetStream's own snapshot and restore API (`$JS.API.STREAM.SNAPSHOT|RESTORE.<stream>`): a stream
/// leaves as the server's archive of its store (messages with their sequence numbers, deletions)
/// and comes back as the same stream. Consumers are left out: every fold positions its own from
/// its checkpoint, and another server's consumers (other hosts, scratch rebuilds) would only linger.
///
/// The snapshot arrives on an inbox in chunks, each with a reply subject the server waits on before
/// it sends more than its window (flow control); an empty message with status 204 ends it. A
/// restore is a request per chunk to the subject the server names, then an empty one that answers
/// with the restored stream.
extension JetStream {
    /// The names of every stream in the account, read page by page.
    package func streamNames() async throws -> [String] {
        struct Request: Encodable { var offset: Int }
        struct Page: Decodable { var total: Int; var offset: Int; var limit: Int; var streams: [String]? }
        var names: [String] = []
        while true {
            let page = try await call("STREAM.NAMES", Request(offset: names.count), as: Page.self)
            let streams = page.streams ?? []
            names += streams
            if streams.isEmpty || names.count >= page.total { return names }
        }
    }

    /// Snapshots `stream`, handing its archive to `chunk` in order; each chunk is acknowledged to
    /// the server only after `chunk` returns, so a slow disk slows the server, not memory. Answers
    /// the server's answer to the request: `config` and `state` as JSON, what a restore sends back.
    /// `stalled` bounds the wait for any one chunk.
    package func snapshot(stream: String, chunkSize: Int = 128 * 1024, stalled: Duration = .seconds(60),
                          chunk: (Data) async throws -> Void) async throws -> Data {
        struct Request: Encodable { var deliverSubject: String; var chunkSize: Int; var jsck: Bool; var noConsumers: Bool }
        let inbox = connection.newInbox()
        let chunks = try await connection.subscribe(inbox, capacity: 256)
        defer { chunks.unsubscribe() }
        let request = try Self.encoder.encode(Request(deliverSubject: inbox, chunkSize: chunkSize, jsck: false, noConsumers: true))
        let answer = try await connection.request("$JS.API.STREAM.SNAPSHOT.\(stream)", payload: request, timeout: apiTimeout)
        _ = try Self.decode(Empty.self, from: answer, context: "snapshot of \(stream)")
        while true {
            guard let message = await chunks.next(timeout: stalled) else {
                throw NATSError(.timeout, "snapshot of \(stream): no chunk from the server for \(stalled)")
            }
            if let status = message.status {
                if status == 204 { return answer.payload }
                throw NATSError(.jetStreamAPI, "snapshot of \(stream): \(status) \(message.statusDescription ?? "")")
            }
            if message.payload.isEmpty, message.replyTo == nil { return answer.payload }
            try await chunk(message.payload)
            if let reply = message.replyTo { try connection.publish(reply) }
        }
    }

    /// Restores `stream` from an archive `snapshot` made, sending what `next` hands over until it
    /// answers nil. `request` is the `{"config":…,"state":…}` the snapshot answered. The server
    /// refuses a stream that exists (`streamExists` below tells first). Answers the restored state.
    package func restore(stream: String, request: Data, chunkTimeout: Duration = .seconds(30),
                         finishTimeout: Duration = .seconds(600), next: () async throws -> Data?) async throws -> StreamState {
        struct Started: Decodable { var deliverSubject: String }
        let answer = try await connection.request("$JS.API.STREAM.RESTORE.\(stream)", payload: request, timeout: apiTimeout)
        let started = try Self.decode(Started.self, from: answer, context: "restore of \(stream)")
        while let chunk = try await next() {
            let ack = try await connection.request(started.deliverSubject, payload: chunk, timeout: chunkTimeout)
            if let status = ack.status, status >= 400 {
                throw NATSError(.jetStreamAPI, "restore of \(stream): \(status) \(ack.statusDescription ?? "")")
            }
            if !ack.payload.isEmpty { _ = try Self.decode(Empty.self, from: ack, context: "restore of \(stream)") }
        }
        // The end: the server unpacks what it received and answers with the stream.
        let done = try await connection.request(started.deliverSubject, payload: Data(), timeout: finishTimeout)
        return try Self.decode(StreamInfo.self, from: done, context: "restore of \(stream)").state
    }

    /// Whether the account has a stream of that name.
    package func streamExists(_ name: String) async throws -> Bool {
        do {
            _ = try await streamInfo(name)
            return true
        } catch let error as NATSError where error.code == .notFound {
            return false
        }
    }
}
