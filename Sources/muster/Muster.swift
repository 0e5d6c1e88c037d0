import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

@main
struct Muster: AsyncParsableCommand {
    /// Runs Swift concurrency on NIO's event loops (the ones Hummingbird serves on), so a
    /// request's handler runs on the thread that read it instead of hopping to Dispatch's pool
    /// and back: on two cores that hop cost more than the handlers did. Done first, before any
    /// task exists; `MUSTER_EXECUTOR=dispatch` keeps the default executor.
    static func main() async {
        if ProcessInfo.processInfo.environment["MUSTER_EXECUTOR"] != "dispatch" {
            _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        await Self.main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "muster",
        abstract: "One backend for five apps: services over NATS, a JetStream log, projections over HTTP.",
        discussion: """
        Every option also reads its MUSTER_* environment variable (MUSTER_NATS_URL, MUSTER_HTTP_PORT, …).
        """,
        version: "0.1.0",
        subcommands: [Serve.self, Publish.self, Tail.self, Events.self, Replay.self, Keys.self]
    )
}
