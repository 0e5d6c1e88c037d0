import CNats
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension NATSConnection {
    /// The servers libnats knows for this connection: those configured and those the cluster
    /// announced since. (On the connection's threads: libnats reads them under its lock.)
    package func knownServers() async -> [String] {
        let handle = self.handle
        return (try? await pool.run { Self.servers(of: handle) }) ?? []
    }

    private static func servers(of handle: Handle) -> [String] {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count: Int32 = 0
        guard natsConnection_GetServers(handle.pointer, &list, &count) == NATS_OK, let list else { return [] }
        defer {
            for index in 0..<Int(count) { free(list[index]) }
            free(list)
        }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    /// Drops the link to the current server so that libnats reconnects, to the next server of its
    /// list (it puts the one it left last), with everything it does on a reconnect: subscriptions
    /// renewed, buffered publishes sent.
    ///
    /// For a server that answers pings but cannot reach the log (cut from its cluster peers):
    /// libnats sees nothing wrong with it, and libnats 3.4 has no call to reconnect on demand.
    /// So the socket is found by its addresses and shut down, which libnats's read loop takes as
    /// the server going away. False when there is no such socket (not connected).
    @discardableResult
    package func leaveCurrentServer() async -> Bool {
        let (handle, logger) = (self.handle, self.logger)
        return (try? await pool.run { Self.leave(handle, logger: logger) }) ?? false
    }

    private static func leave(_ handle: Handle, logger: Logger) -> Bool {
        var ipPointer: UnsafeMutablePointer<CChar>?
        var port: Int32 = 0
        guard natsConnection_GetLocalIPAndPort(handle.pointer, &ipPointer, &port) == NATS_OK, let ipPointer else { return false }
        let ip = String(cString: ipPointer)
        free(ipPointer)
        var url = [CChar](repeating: 0, count: 512)
        guard natsConnection_GetConnectedUrl(handle.pointer, &url, url.count) == NATS_OK,
              let serverPort = URL(string: text(url))?.port,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
        for entry in entries {
            guard let fd = Int32(entry), let local = address(of: fd, peer: false), local == (ip, String(port)),
                  address(of: fd, peer: true)?.port == String(serverPort) else { continue }
            // The fd is libnats's, found by both ends of the link. Should libnats close it between
            // the check and the shutdown, the number could be reused by the process, but not for a
            // socket with the same two ends while the server's end is the one being left.
            logger.warning("leaving NATS server", metadata: ["server": "\(NATSConfiguration.redacted(text(url)))"])
            return shutdown(fd, Int32(SHUT_RDWR)) == 0
        }
        return false
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The numeric host and port of a socket's local (or peer) end; nil for anything else.
    private static func address(of fd: Int32, peer: Bool) -> (host: String, port: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let resolved = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard resolved == 0 else { return nil }
        let found = text(host)
        return (found.hasPrefix("::ffff:") ? String(found.dropFirst(7)) : found, text(service))
    }
}
