import Foundation
import Glibc
import Synchronization

/// Three (or more) nats-servers as real hosts: each in a network namespace of its own, linked by
/// a veth pair to a bridge the test makes, with an address on a private /24 that exists only
/// there. The test process stays outside (on the bridge's address), so a node can be cut off as a
/// real network would cut it: its link taken down, or its traffic with its peers dropped while
/// clients still reach it. Everything made (namespaces, links, the bridge, the one iptables rule)
/// is removed by `stop()`. Needs root and `ip`; `start` throws `NetnsUnavailable` otherwise.
package final class NetnsCluster: Sendable {
    package struct Node: Sendable {
        package let name: String
        package let namespace: String
        /// The host end of the node's veth pair, on the bridge.
        package let hostLink: String
        package let address: String
        package var url: String { "nats://\(address):4222" }
        package var monitor: String { "http://\(address):8222" }
        let directory: URL
        let arguments: [String]
    }

    package let nodes: [Node]
    let bridge: String
    let bridgeAddress: String
    let processes: Mutex<[String: Process]>
    let forwardRule: [String]?

    /// Every node's client URL, as `MUSTER_NATS_URL` takes a list.
    package var urls: String { nodes.map(\.url).joined(separator: ",") }

    private init(nodes: [Node], bridge: String, bridgeAddress: String, forwardRule: [String]?) {
        self.nodes = nodes
        self.bridge = bridge
        self.bridgeAddress = bridgeAddress
        self.processes = Mutex([:])
        self.forwardRule = forwardRule
    }

    package func node(named name: String) -> Node? { nodes.first { $0.name == name } }

    /// Whether this machine lets the test make namespaces: root, iproute2, and one made and removed.
    package static let available: Bool = {
        guard getuid() == 0 else { return false }
        let probe = "muster-probe-\(getpid())"
        guard (try? run(["ip", "netns", "add", probe])) != nil else { return false }
        try? run(["ip", "netns", "del", probe])
        return true
    }()

    /// Makes the network and starts a server in every namespace, routed into one JetStream cluster.
    package static func start(size: Int = 3, name: String = "muster-partition") async throws -> NetnsCluster {
        guard getuid() == 0 else { throw NetnsUnavailable("network namespaces need root (the tests run as root in CI)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") || FileManager.default.isExecutableFile(atPath: "/sbin/ip") else {
            throw NetnsUnavailable("`ip` (iproute2) is not installed")
        }
        let id = String(UInt32.random(in: 0..<0xFFFF), radix: 16)
        let subnet = "10.213.\(Int.random(in: 1...254))"
        let bridge = "mb\(id)"
        let binary = try NATSTestServer.binary()
        let addresses = (1...size).map { "\(subnet).\(10 + $0)" }
        let routes = addresses.map { "nats://\($0):6222" }.joined(separator: ",")
        let nodes = zip(1...size, addresses).map { index, address in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("muster-netns-\(id)-n\(index)")
            return Node(name: "n\(index)", namespace: "muster-\(id)-n\(index)", hostLink: "mv\(id)\(index)h", address: address,
                        directory: directory,
                        arguments: [binary, "-a", address, "-p", "4222", "-m", "8222", "-js", "-sd", directory.appendingPathComponent("js").path,
                                    "--server_name", "n\(index)", "--cluster_name", name, "--cluster", "nats://\(address):6222",
                                    "--routes", routes, "-l", directory.appendingPathComponent("server.log").path])
        }
        // Bridged frames pass the host's FORWARD chain where br_netfilter is loaded: let this bridge's own through.
        let filtered = (try? String(contentsOfFile: "/proc/sys/net/bridge/bridge-nf-call-iptables", encoding: .utf8))?.hasPrefix("1") ?? false
        let forwardRule = filtered ? ["FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT"] : nil
        let cluster = NetnsCluster(nodes: nodes, bridge: bridge, bridgeAddress: "\(subnet).1", forwardRule: forwardRule)
        do {
            try run(["ip", "link", "add", bridge, "type", "bridge"])
            try run(["ip", "addr", "add", "\(subnet).1/24", "dev", bridge])
            try run(["ip", "link", "set", bridge, "up"])
            if let forwardRule { try run(["iptables", "-I"] + forwardRule) }
            for node in nodes {
                let inside = "mv\(id)\(node.name.dropFirst())n"
                try run(["ip", "netns", "add", node.namespace])
                try run(["ip", "link", "add", node.hostLink, "type", "veth", "peer", "name", inside])
                try run(["ip", "link", "set", node.hostLink, "master", bridge, "up"])
                try run(["ip", "link", "set", inside, "netns", node.namespace])
                try run(["ip", "-n", node.namespace, "addr", "add", "\(node.address)/24", "dev", inside])
                try run(["ip", "-n", node.namespace, "link", "set", inside, "up"])
                try run(["ip", "-n", node.namespace, "link", "set", "lo", "up"])
                try FileManager.default.createDirectory(at: node.directory, withIntermediateDirectories: true)
            }
            for node in nodes { try await cluster.launch(node) }
        } catch {
            cluster.stop()
            if error is NetnsUnavailable { throw error }
            throw NetnsUnavailable("could not make the test network: \(error)")
        }
        return cluster
    }

    /// Starts (or restarts) a node's server inside its namespace and waits until it takes clients.
    package func launch(_ node: Node) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        // `ip netns exec` enters the namespace and execs the server: the pid is the server's.
        process.arguments = ["netns", "exec", node.namespace] + node.arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        processes.withLock { $0[node.name] = process }
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if Self.accepts(node.address, 4222) { return }
            if process.ending != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let log = (try? String(contentsOf: node.directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        throw TestServerError("nats-server \(node.name) did not start: \(log.suffix(2000))")
    }

    /// SIGKILL, as a crash would; its storage stays for `launch`.
    package func crash(_ node: Node) async throws {
        try await processes.withLock({ $0[node.name] })?.stop(signal: SIGKILL, "nats-server \(node.name) (SIGKILL)")
    }

    /// Takes the node's link down: it is cut from everyone, silently (no reset reaches anybody).
    package func cutOff(_ node: Node) throws { try Self.run(["ip", "link", "set", node.hostLink, "down"]) }

    /// Drops everything between the node and its peers; clients (the bridge's address) still reach it.
    package func cutFromPeers(_ node: Node) throws {
        for peer in nodes where peer.name != node.name {
            try Self.run(["ip", "netns", "exec", node.namespace, "iptables", "-A", "INPUT", "-s", peer.address, "-j", "DROP"])
            try Self.run(["ip", "netns", "exec", node.namespace, "iptables", "-A", "OUTPUT", "-d", peer.address, "-j", "DROP"])
        }
    }

    /// Undoes `cutOff` and `cutFromPeers`.
    package func heal(_ node: Node) throws {
        try Self.run(["ip", "link", "set", node.hostLink, "up"])
        try Self.run(["ip", "netns", "exec", node.namespace, "iptables", "-F"])
    }

    /// The last lines of a node's server log (what a failed test prints).
    package func logTail(_ node: Node, lines: Int = 40) -> [String] {
        let text = (try? String(contentsOf: node.directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).map(String.init)
    }

    /// Stops every server and removes all the test made.
    package func stop() {
        let running = processes.withLock { processes in
            defer { processes.removeAll() }
            return Array(processes.values)
        }
        // Not waited for (a `defer` calls this): SIGKILL ends them, and a namespace goes once they have.
        for process in running where process.ending == nil { kill(process.processIdentifier, SIGKILL) }
        for node in nodes {
            try? Self.run(["ip", "netns", "del", node.namespace])
            try? Self.run(["ip", "link", "del", node.hostLink])
            try? FileManager.default.removeItem(at: node.directory)
        }
        if let forwardRule { try? Self.run(["iptables", "-D"] + forwardRule) }
        try? Self.run(["ip", "link", "del", bridge])
    }

    deinit { stop() }

    /// Runs a command to its end; throws with its output unless it exits 0. Blocks its thread for
    /// as long as `ip` or `iptables` takes (milliseconds): the partition test runs alone, and its
    /// set-up and clean-up (`available`, `stop`) are synchronous.
    static func run(_ arguments: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("muster-netns-run-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else { throw TestServerError("cannot create \(output.path)") }
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.runAlone()
        let deadline = ContinuousClock.now + .seconds(30)
        var ending = process.ending
        while ending == nil && ContinuousClock.now < deadline {
            usleep(2_000)
            ending = process.ending
        }
        let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
        guard let ending else {
            kill(process.processIdentifier, SIGKILL)
            throw TestServerError("`\(arguments.joined(separator: " "))` did not end within 30 s: \(text)")
        }
        guard ending == .exited(0) else {
            throw TestServerError("`\(arguments.joined(separator: " "))` failed (\(ending)): \(text)")
        }
    }

    /// Whether a TCP connection to `address:port` opens within half a second.
    static func accepts(_ address: String, _ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { return false }
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected == 0
    }
}

/// The test network cannot be made here (not root, no iproute2, no namespaces): the test skips.
package struct NetnsUnavailable: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
