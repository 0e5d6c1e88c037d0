package import Hummingbird
import HTTPTypes
import MusterEvents
import MusterLog
import MusterNATS
package import MusterRuntime

extension People {
    /// The process's people: one fold, one password pool, one key ring, whichever apps ask.
    package static func shared(in environment: MusterEnvironment) -> People {
        environment.shared {
            let settings = environment.configuration[SignInSettings.self]
            let attempts = AttemptLimiter(addressLimit: settings.loginAttemptsPerAddress)
            environment.sharing.register(attempts, as: "signin-failures")
            // People's keys, read at every sign-in, from the process's copy of their bucket.
            let keys = KeyValueMirror(environment.jetStream, bucket: PersonalDataVault.bucketName,
                                      replicas: environment.log.configuration.replicas, erasable: true, logger: environment.logger)
            environment.runOnce(keys)
            return People(log: environment.log, runner: environment.projections.runner(PeopleProjection.self),
                   passwords: PasswordHasher(threads: settings.passwordHashThreads), apps: environment.apps,
                   attempts: attempts,
                   trustedProxies: environment.configuration.trustedProxies, keyMirror: keys)
        }
    }

    /// The address a sign-in comes from, for the attempt limits: the connection's peer, or, when
    /// the peer is a trusted proxy (`MUSTER_TRUSTED_PROXIES`: the gateway), the client its
    /// `X-Forwarded-For` names (`TrustedProxies.clientAddress`).
    package func clientAddress(_ request: Request, _ context: MusterRequestContext) -> String {
        trustedProxies.clientAddress(peer: context.remoteAddress, forwardedFor: request.headers[.xForwardedFor])
    }
}

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters, digits, -) is a valid field name.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
