import ArgumentParser

@main
struct Muster: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muster",
        abstract: "One backend for five apps: services over NATS, a JetStream log, projections over HTTP.",
        discussion: """
        Every option also reads its MUSTER_* environment variable (MUSTER_NATS_URL, MUSTER_HTTP_PORT, …).
        """,
        version: "0.1.0",
        subcommands: [Serve.self, Publish.self, Tail.self, Events.self, Replay.self, Keys.self, Bench.self]
    )
}
