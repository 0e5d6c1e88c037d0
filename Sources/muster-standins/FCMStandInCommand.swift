import ArgumentParser
import Foundation
import Hummingbird
import MusterPush
import MusterStandIns

/// `muster-standins fcm`: a local server that answers like Google's token endpoint and FCM HTTP v1,
/// for `make run FCM=standin` and demos. Never a production part.
struct FCMStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fcm",
        abstract: "Answer like FCM HTTP v1 and Google's token endpoint (plain HTTP) on this machine, for demos.",
        discussion: """
        Give the notifier a service-account file whose token_uri is http://127.0.0.1:PORT/token
        (MUSTER_FCM_SERVICE_ACCOUNT) and MUSTER_FCM_URL=http://127.0.0.1:PORT. GET /standin/deliveries lists
        what it received; POST /standin/unregister/<token> makes it answer 404 UNREGISTERED for that token.
        """)

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on.")
    var port = 2198

    @Option(name: .long, help: "The service-account JSON: assertions are checked against its key.")
    var serviceAccount: String?

    func run() async throws {
        let publicKey = try serviceAccount.map { try FCMServiceAccount(contentsOf: $0).publicKey }
        let app = Application(router: FCMStandIn.router(recorder: FCMStandIn.Recorder(), publicKey: publicKey),
                              configuration: .init(address: .hostname(host, port: port), serverName: "fcm-standin"))
        print("fcm-standin: http://\(host):\(port), deliveries at /standin/deliveries")
        try await app.runService()
    }
}
