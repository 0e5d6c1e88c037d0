import Foundation

/// How to reach NATS. Everything has a default that works against a local `nats-server`.
public struct NATSConfiguration: Sendable {
    /// One server URL or a comma-separated list (`nats://user:pass@a:4222,nats://user:pass@b:4222`);
    /// each may carry its own credentials. The connection starts while any one of them is up.
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

extension NATSConfiguration {
    /// The servers of `url`, in order, blanks dropped.
    public var servers: [String] {
        url.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `url` safe for a log line or an error: passwords and tokens become `***`.
    public var redactedURL: String {
        servers.map(Self.redacted).joined(separator: ",")
    }

    /// `nats://user:secret@host` → `nats://user:***@host`; `nats://token@host` → `nats://***@host`.
    static func redacted(_ server: String) -> String {
        guard let scheme = server.range(of: "://"), let at = server[scheme.upperBound...].lastIndex(of: "@") else { return server }
        let userInfo = server[scheme.upperBound..<at]
        let user = userInfo.firstIndex(of: ":").map { userInfo[..<$0] + ":***" } ?? "***"
        return server[..<scheme.upperBound] + user + server[at...]
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
