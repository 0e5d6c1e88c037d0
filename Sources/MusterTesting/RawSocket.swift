import Glibc

/// A blocking TCP client socket on loopback, closed when released.
package final class RawSocket: Sendable {
    package let fd: Int32

    /// Connects to `port` on 127.0.0.1, from `source` (another loopback address, 127.0.0.2, to be
    /// another client) when given.
    package init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket: \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw TestServerError("bind \(source): \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: deinit runs for a class whose init throws once `fd` is set, and a second
        // close would close whatever descriptor another thread opened meanwhile (a NATS connection).
        guard result == 0 else { throw TestServerError("connect: \(errno)") }
    }

    deinit { if fd >= 0 { close(fd) } }

    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    package func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestServerError("send: \(errno)") }
            offset += sent
        }
    }

    /// What arrives within `wait` (empty if nothing, or the connection ended).
    package func receive(wait: Duration = .seconds(2)) -> String {
        var timeout = timeval(tv_sec: Int(wait.components.seconds), tv_usec: Int(wait.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    package enum State: Sendable { case open, closed, reset }

    /// Whether the server has closed its end (a read returns end-of-file after any answer it
    /// sent), the connection was reset, or it is still open.
    package func state(wait: Duration = .milliseconds(200)) -> State {
        var timeout = timeval(tv_sec: Int(wait.components.seconds), tv_usec: Int(wait.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return .closed }
            if n < 0 { return errno == ECONNRESET ? .reset : .open }
        }
    }

    package func isClosedByPeer(wait: Duration = .milliseconds(200)) -> Bool { state(wait: wait) != .open }
}
