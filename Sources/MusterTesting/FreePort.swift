import Glibc

/// A loopback TCP port nobody listens on just now (the kernel's pick; another process can take it
/// before the caller binds it: rare, and `NATSTestCluster.start` tries again when it happens).
package func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestServerError("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw TestServerError("no free port: \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
