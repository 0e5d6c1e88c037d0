import ArgumentParser
import Hummingbird
import MusterStandIns

/// `muster-standins payments`: answers like Stripe's payment intents and refunds and keeps what it
/// charged, for `make run PAYMENTS=standin`, demos and tests. Never a production part.
struct PaymentsStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payments",
        abstract: "Answer like Stripe's API (payment intents, refunds; plain HTTP) on this machine, for demos. No money moves.",
        discussion: "Point Muster at it with MUSTER_PAYMENTS_URL=http://127.0.0.1:PORT and MUSTER_PAYMENTS_KEY=sk_test_…; GET /standin/payments lists the charges.")

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on.")
    var port = 2201

    func run() async throws {
        let app = Application(router: PaymentsStandIn.router(ledger: PaymentsStandIn.Ledger()),
                              configuration: .init(address: .hostname(host, port: port), serverName: "payments-standin"))
        print("payments-standin: http://\(host):\(port), charges at /standin/payments")
        try await app.runService()
    }
}
