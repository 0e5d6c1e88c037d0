/// How to reach NATS. Everything has a default that works against a local `nats-server`.
public struct NATSConfiguration: Sendable {
    public var url: String
    /// The client name the server shows in its connection list.
    public var name: String
    /// Optional `.creds` file (JWT + NKey seed) for per-service credentials.
    public var credentialsFile: String?
    public var connectTimeout: Duration
    /// -1 reconnects forever, which is what a long-running service wants.
    public var maxReconnects: Int
    public var reconnectWait: Duration
    /// Bytes kept while disconnected; publishes beyond this fail instead of growing memory.
    public var reconnectBufferBytes: Int
    public var drainTimeout: Duration

    public init(
        url: String = "nats://127.0.0.1:4222",
        name: String = "muster",
        credentialsFile: String? = nil,
        connectTimeout: Duration = .seconds(5),
        maxReconnects: Int = -1,
        reconnectWait: Duration = .milliseconds(500),
        reconnectBufferBytes: Int = 8 * 1024 * 1024,
        drainTimeout: Duration = .seconds(10)
    ) {
        self.url = url
        self.name = name
        self.credentialsFile = credentialsFile
        self.connectTimeout = connectTimeout
        self.maxReconnects = maxReconnects
        self.reconnectWait = reconnectWait
        self.reconnectBufferBytes = reconnectBufferBytes
        self.drainTimeout = drainTimeout
    }
}

extension Duration {
    /// Whole milliseconds, as libnats takes them.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Nanoseconds, as the JetStream API takes them.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
