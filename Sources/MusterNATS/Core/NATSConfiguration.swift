import Foundation

/// How to reach NATS. Everything has a default that works against a local `nats-server`.
package struct NATSConfiguration: Sendable {
    /// One server URL or a comma-separated list (`nats://user:pass@a:4222,nats://user:pass@b:4222`);
    /// each may carry its own credentials. The connection starts while any one of them is up.
    package var url: String
    /// The client name the server shows in its connection list.
    package var name: String
    /// Optional `.creds` file (JWT + NKey seed) for per-service credentials.
    package var credentialsFile: String?
    package var connectTimeout: Duration
    /// -1 reconnects forever, which is what a long-running service wants.
    package var maxReconnects: Int
    package var reconnectWait: Duration
    /// Bytes kept while disconnected; publishes beyond this fail instead of growing memory.
    package var reconnectBufferBytes: Int
    package var drainTimeout: Duration
    /// How often libnats pings the server, and how many pings may go unanswered before it calls
    /// the connection stale and moves to another server of the list: a server that went silent
    /// (its link cut, its host frozen) is left after between `pingInterval × maxPingsOut` and
    /// one interval more. libnats's own defaults (2 min × 2) keep a dead server for minutes.
    package var pingInterval: Duration
    package var maxPingsOut: Int
    /// A socket write that cannot finish in this time fails, and the connection with it, instead
    /// of waiting on a server that stopped reading.
    package var writeDeadline: Duration

    package init(
        url: String = "nats://127.0.0.1:4222",
        name: String = "muster",
        credentialsFile: String? = nil,
        connectTimeout: Duration = .seconds(5),
        maxReconnects: Int = -1,
        reconnectWait: Duration = .milliseconds(500),
        reconnectBufferBytes: Int = 8 * 1024 * 1024,
        drainTimeout: Duration = .seconds(10),
        pingInterval: Duration = .seconds(1),
        maxPingsOut: Int = 3,
        writeDeadline: Duration = .seconds(2)
    ) {
        self.url = url
        self.name = name
        self.credentialsFile = credentialsFile
        self.connectTimeout = connectTimeout
        self.maxReconnects = maxReconnects
        self.reconnectWait = reconnectWait
        self.reconnectBufferBytes = reconnectBufferBytes
        self.drainTimeout = drainTimeout
        self.pingInterval = pingInterval
        self.maxPingsOut = maxPingsOut
        self.writeDeadline = writeDeadline
    }
}

extension NATSConfiguration {
    /// The servers of `url`, in order, blanks dropped.
    package var servers: [String] {
        url.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `url` safe for a log line or an error: passwords and tokens become `***`.
    package var redactedURL: String {
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

    /// Seconds with their fraction, as a gauge or a rate takes them.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Nanoseconds, as the JetStream API takes them.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
