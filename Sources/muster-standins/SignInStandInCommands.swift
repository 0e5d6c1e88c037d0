import ArgumentParser
import Foundation
import Hummingbird
import MusterStandIns

/// `muster-standins identity`: answers like Apple's and Google's sign-in key endpoints and mints
/// their ID tokens, for `make run`, demos and tests. Never a production part.
struct IdentityStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Publish Apple- and Google-shaped sign-in keys and mint ID tokens (plain HTTP) on this machine, for demos.",
        discussion: """
        Point Muster at it with MUSTER_APPLE_KEYS_URL=http://127.0.0.1:PORT/apple/keys and
        MUSTER_GOOGLE_KEYS_URL=http://127.0.0.1:PORT/google/keys. POST /standin/token with
        {"provider": "apple"|"google", "sub": "…", "email": "…", "email_verified": true} answers {"id_token": "…"},
        what the app gets from Apple's or Google's SDK on a phone.
        """)

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on.")
    var port = 2199

    func run() async throws {
        let app = Application(router: IdentityStandIn.router(keys: IdentityStandIn.Keys()),
                              configuration: .init(address: .hostname(host, port: port), serverName: "identity-standin"))
        print("identity-standin: http://\(host):\(port) (keys at /apple/keys and /google/keys, tokens from POST /standin/token)")
        try await app.runService()
    }
}

/// `muster-standins sms`: answers like Twilio's Messages API and SendGrid's Mail Send API and keeps
/// what it was asked to send (phone codes, invitations).
struct SMSStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sms",
        abstract: "Answer like Twilio's Messages API and SendGrid's Mail Send API (plain HTTP) on this machine and keep the messages, for demos.",
        discussion: "Point Muster at it with MUSTER_SMS_URL and MUSTER_MAIL_URL=http://127.0.0.1:PORT; GET /standin/messages lists what it was asked to send.")

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on.")
    var port = 2200

    func run() async throws {
        let app = Application(router: SMSStandIn.router(recorder: SMSStandIn.Recorder()),
                              configuration: .init(address: .hostname(host, port: port), serverName: "sms-standin"))
        print("sms-standin: http://\(host):\(port), messages at /standin/messages")
        try await app.runService()
    }
}
