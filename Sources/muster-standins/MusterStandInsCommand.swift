import ArgumentParser

/// `muster-standins`: local servers that answer as the providers Muster calls but that cannot run
/// here (APNs, FCM, Apple's and Google's sign-in keys, an SMS and mail provider, Stripe), for
/// `make run APNS=standin …`, the demo and the tests. A separate program, so that none of it is
/// in the production `muster`.
@main
struct MusterStandInsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muster-standins",
        abstract: "Local stand-ins of the providers Muster calls (APNs, FCM, sign-in keys, SMS and mail, payments). Never production parts.",
        version: "0.1.0",
        subcommands: [APNsStandInCommand.self, FCMStandInCommand.self, IdentityStandInCommand.self, SMSStandInCommand.self,
                      PaymentsStandInCommand.self]
    )
}
