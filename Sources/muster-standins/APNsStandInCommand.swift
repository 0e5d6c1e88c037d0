import ArgumentParser
import Crypto
import Foundation
import Hummingbird
import MusterPush
import MusterStandIns

/// `muster-standins apns`: a local server that answers like APNs, for `make run APNS=standin`, demos
/// and the bench. Never a production part.
struct APNsStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns",
        abstract: "Answer like Apple's push service (HTTP/2 over TLS) on this machine, for demos and tests.",
        discussion: """
        Point the notifier at it with MUSTER_APNS_SANDBOX_URL / MUSTER_APNS_PRODUCTION_URL=https://127.0.0.1:PORT and
        MUSTER_APNS_CA_FILE=<its certificate>. GET /standin/deliveries lists what it received;
        POST /standin/unregister/<token> makes it answer 410 Unregistered for that token.
        """)

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on.")
    var port = 2197

    @Option(name: .long, help: "TLS certificate (PEM); scripts/make-certs.sh makes one.")
    var cert: String

    @Option(name: .long, help: "TLS private key (PEM).")
    var key: String

    @Option(name: .long, help: "The team's .p8 signing key: provider tokens are then checked against it.")
    var apnsKey: String?

    func run() async throws {
        let publicKey = try apnsKey.map { try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: $0, encoding: .utf8)).publicKey }
        let app = try APNsStandIn.application(host: host, port: port, certificate: cert, key: key, recorder: APNsStandIn.Recorder(),
                                              publicKey: publicKey)
        print("apns-standin: https://\(host):\(port) (HTTP/2), deliveries at /standin/deliveries")
        try await app.runService()
    }
}
