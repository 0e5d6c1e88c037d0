import ArgumentParser
import MusterCommandLine

@main
struct Muster: AsyncParsableCommand {
    static func main() async {
        installMusterExecutor()
        await Self.main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "muster",
        abstract: "One backend for five apps: services over NATS, a JetStream log, projections over HTTP.",
        discussion: """
        Every option also reads its MUSTER_* environment variable (MUSTER_NATS_URL, MUSTER_HTTP_PORT, …).
        """,
        version: "0.1.0",
        subcommands: [Serve.self, Publish.self, Tail.self, Events.self, Replay.self, Backup.self, Restore.self, Keys.self, PeopleCommand.self]
    )
}
