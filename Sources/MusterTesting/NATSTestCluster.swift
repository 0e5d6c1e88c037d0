import Foundation

/// Three (or more) real nats-servers on loopback, routed into one JetStream cluster, each in a
/// temporary folder of its own. A node can crash and restart on its own port with its storage.
package final class NATSTestCluster: Sendable {
    /// The nodes, in order; node `i` runs with server name `names[i]`.
    package let nodes: [NATSTestServer]
    package let names: [String]

    private init(nodes: [NATSTestServer], names: [String]) {
        self.nodes = nodes
        self.names = names
    }

    /// Every node's client URL, as `MUSTER_NATS_URL` takes a list.
    package var urls: String { nodes.map(\.url).joined(separator: ",") }

    package func node(named name: String) -> NATSTestServer? {
        names.firstIndex(of: name).map { nodes[$0] }
    }

    /// Starts `size` nodes; each knows the others' cluster ports as its routes. The routes must be
    /// known before any node listens, so the ports are picked free and can be taken by another
    /// process meanwhile (it happened: "bind: address already in use" on a router port, a test
    /// failed): then the whole cluster starts again on new ports.
    package static func start(size: Int = 3, name: String = "muster-test") async throws -> NATSTestCluster {
        var attempt = 1
        while true {
            do {
                return try await startOnce(size: size, name: name)
            } catch let error as TestServerError where attempt < 5 && error.description.contains("address already in use") {
                attempt += 1
            }
        }
    }

    private static func startOnce(size: Int, name: String) async throws -> NATSTestCluster {
        let clusterPorts = try (0..<size).map { _ in try freePort() }
        let routes = clusterPorts.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",")
        let names = (1...size).map { "n\($0)" }
        var nodes: [NATSTestServer] = []
        do {
            for (index, port) in clusterPorts.enumerated() {
                nodes.append(try await NATSTestServer.start(extraArguments: [
                    "--server_name", names[index], "--cluster_name", name,
                    "--cluster", "nats://127.0.0.1:\(port)", "--routes", routes,
                ]))
            }
        } catch {
            for node in nodes { node.stop() }
            throw error
        }
        return NATSTestCluster(nodes: nodes, names: names)
    }

    package func stop() {
        for node in nodes { node.stop() }
    }

    deinit { stop() }
}
