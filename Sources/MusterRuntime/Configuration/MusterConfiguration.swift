package import Foundation
package import Logging
import MusterEvents
package import MusterLog
package import MusterNATS

/// Everything a `muster` process is told at start: flags win over environment, environment over defaults.
package struct MusterConfiguration: Sendable {
    package var natsURL = "nats://127.0.0.1:4222"
    package var natsCredentials: String?
    /// libnats pings every `natsPingInterval` and calls a server dead after `natsMaxPingsOut`
    /// unanswered (docs/operations.md, "What an app sees when NATS fails").
    package var natsPingInterval: Duration = .seconds(1)
    package var natsMaxPingsOut = 3
    /// How long a write waits for the log's ack before it is answered 503.
    package var writeDeadline: Duration = .seconds(5)
    package var httpHost = "127.0.0.1"
    package var httpPort = 8080
    package var dataDirectory = ".data/muster"
    package var logLevel: Logger.Level = .info
    package var logFormat: LogFormat = .text
    /// Distinguishes this process's projection consumers from other processes' (a compose service name, say).
    package var instance = "local"
    /// Set by the process when a tracer is bootstrapped (OTEL_* variables): HTTP requests get spans.
    package var tracing = false
    package var streamReplicas = 1
    /// Requests per minute one API key may make to read routes / write routes; 0 turns the limit off.
    package var readRatePerMinute = 600
    package var writeRatePerMinute = 30
    /// The gazetteer file the geocode service loads (`make gazetteer` builds it).
    package var gazetteerPath = ".data/gazetteer/places.tsv"
    /// PoP's configuration folder: `orgs.json` (organisations, their state and decks) and `decks/`
    /// (one JSON file a deck). A second state or organisation is data, not code.
    package var popConfigPath = "deploy/pop"
    /// A Nominatim-compatible search URL for street-level forward geocoding; empty means offline only.
    package var geocodeUpstream: String?
    /// Where alerts (raised and resolved) are POSTed: Muster's JSON, Slack or PagerDuty Events v2
    /// (`AlertWebhookTarget`); none means they are only recorded.
    package var alertWebhooks: [AlertWebhookTarget] = []
    /// Time limits for a request's head and body, the keep-alive idle limit, and the bound on open connections.
    package var connectionLimits = ConnectionLimits()
    /// Where Prometheus scrapes `/metrics`: its own port, never the public one; nil turns it off, 0 picks a free port.
    package var metricsPort: Int? = 9464
    /// How long an OFFLEASH access token lives. Today's app never refreshes, so this is the old
    /// server's 24 h: shorter would sign its customers out in the middle of the day.
    package var offleashTokenLifetime: Duration = .seconds(86_400)
    /// Failed sign-ins one client address may make in 15 minutes (0: no limit per address; the
    /// limit per account, 5 failures, always holds). Successes are not counted: an office or a
    /// carrier's NAT signs in all day; an attacker guessing passwords fails.
    package var loginAttemptsPerAddress = 300
    /// The proxies whose `X-Forwarded-For` names the client (the gateway); none by default, so a
    /// client's own header is never believed.
    package var trustedProxies = TrustedProxies()
    /// Apple Push Notification service: the token-signing key (`.p8`), its id and the team's;
    /// without all three the notifier records every iOS push as failed with `NoProvider`.
    package var apns = APNsSettings()
    /// Firebase Cloud Messaging (Android): the service account's JSON file, and FCM's base URL.
    package var fcm = FCMSettings()
    /// Sign in with Apple and Google (whose keys, for which app ids) and the SMS provider of phone sign-in.
    package var signIn = SignInSettings()
    /// Where invitations to join an organisation go by email, and the link they carry.
    package var invitations = InvitationSettings()
    /// Where OFFLEASH's checkouts are charged: Stripe's API, or `muster-standins payments`.
    package var payments = PaymentSettings()
    /// Bound on finishing in-flight work after SIGTERM.
    package var shutdownGrace: Duration = .seconds(15)

    package init() {}

    /// Every setting, by its environment variable.
    package enum Setting: String, CaseIterable, Sendable {
        case natsURL = "MUSTER_NATS_URL"
        case natsCredentials = "MUSTER_NATS_CREDS"
        case natsPingInterval = "MUSTER_NATS_PING_INTERVAL"
        case natsMaxPingsOut = "MUSTER_NATS_MAX_PINGS_OUT"
        case writeDeadline = "MUSTER_WRITE_DEADLINE"
        case httpHost = "MUSTER_HTTP_HOST"
        case httpPort = "MUSTER_HTTP_PORT"
        case dataDirectory = "MUSTER_DATA_DIR"
        case logLevel = "MUSTER_LOG_LEVEL"
        case logFormat = "MUSTER_LOG_FORMAT"
        case instance = "MUSTER_INSTANCE"
        case streamReplicas = "MUSTER_STREAM_REPLICAS"
        case readRate = "MUSTER_RATE_READ"
        case writeRate = "MUSTER_RATE_WRITE"
        case gazetteer = "MUSTER_GAZETTEER"
        case popConfig = "MUSTER_POP_CONFIG"
        case geocodeUpstream = "MUSTER_GEOCODE_UPSTREAM"
        case alertWebhooks = "MUSTER_ALERT_WEBHOOKS"
        case headTimeout = "MUSTER_HTTP_HEAD_TIMEOUT"
        case bodyTimeout = "MUSTER_HTTP_BODY_TIMEOUT"
        case idleTimeout = "MUSTER_HTTP_IDLE_TIMEOUT"
        case maxConnections = "MUSTER_HTTP_MAX_CONNECTIONS"
        case maxConnectionsPerAddress = "MUSTER_HTTP_MAX_CONNECTIONS_PER_ADDRESS"
        case metricsPort = "MUSTER_METRICS_PORT"
        case offleashTokenLifetime = "MUSTER_OFFLEASH_TOKEN_SECONDS"
        case loginAttemptsPerAddress = "MUSTER_LOGIN_ATTEMPTS_PER_ADDRESS"
        case trustedProxies = "MUSTER_TRUSTED_PROXIES"
        case apnsKeyFile = "MUSTER_APNS_KEY_FILE"
        case apnsKeyID = "MUSTER_APNS_KEY_ID"
        case apnsTeamID = "MUSTER_APNS_TEAM_ID"
        case apnsSandboxURL = "MUSTER_APNS_SANDBOX_URL"
        case apnsProductionURL = "MUSTER_APNS_PRODUCTION_URL"
        case apnsCAFile = "MUSTER_APNS_CA_FILE"
        case fcmServiceAccount = "MUSTER_FCM_SERVICE_ACCOUNT"
        case fcmURL = "MUSTER_FCM_URL"
        case appleKeysURL = "MUSTER_APPLE_KEYS_URL"
        case appleAudiences = "MUSTER_APPLE_AUDIENCES"
        case googleKeysURL = "MUSTER_GOOGLE_KEYS_URL"
        case googleAudiences = "MUSTER_GOOGLE_AUDIENCES"
        case smsURL = "MUSTER_SMS_URL"
        case smsAccount = "MUSTER_SMS_ACCOUNT"
        case smsToken = "MUSTER_SMS_TOKEN"
        case smsFrom = "MUSTER_SMS_FROM"
        case mailURL = "MUSTER_MAIL_URL"
        case mailKey = "MUSTER_MAIL_KEY"
        case mailFrom = "MUSTER_MAIL_FROM"
        case inviteLink = "MUSTER_INVITE_LINK"
        case paymentsURL = "MUSTER_PAYMENTS_URL"
        case paymentsKey = "MUSTER_PAYMENTS_KEY"
    }

    /// Sets one setting from text. The environment and the command-line flags both come through
    /// here, so a value means the same and is refused the same way wherever it comes from.
    /// - Parameter source: how the user gave it (`--port`), for the error; the variable by default.
    package mutating func set(_ setting: Setting, _ value: String, source: String? = nil) throws {
        let given = "\(source ?? setting.rawValue)=\(value)"
        switch setting {
        case .natsURL: natsURL = value
        case .natsCredentials: natsCredentials = value.isEmpty ? nil : value
        case .httpHost: httpHost = value
        case .httpPort:
            guard let port = Int(value), (0...65535).contains(port) else { throw ConfigurationError("\(given) is not a port") }
            httpPort = port
        case .dataDirectory: dataDirectory = value
        case .logLevel:
            guard let level = Logger.Level(rawValue: value.lowercased()) else {
                throw ConfigurationError("\(given) is not one of trace, debug, info, notice, warning, error, critical")
            }
            logLevel = level
        case .logFormat:
            guard let format = LogFormat(rawValue: value.lowercased()) else { throw ConfigurationError("\(given) must be text or json") }
            logFormat = format
        case .instance:
            // It becomes part of NATS consumer names, so it must be one subject token. `{hostname}`
            // names each replica of a scaled container apart (a container's host name is its id):
            // replicas sharing one name would share one consumer and each fold half the log.
            let host = ProcessInfo.processInfo.hostName.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
            let value = value.replacingOccurrences(of: "{hostname}", with: String(host))
            guard Subject.isToken(value) else { throw ConfigurationError("\(given) must be letters, digits, - or _ (or {hostname})") }
            instance = value
        case .streamReplicas:
            guard let n = Int(value), [1, 3, 5].contains(n) else { throw ConfigurationError("\(given) must be 1, 3 or 5") }
            streamReplicas = n
        case .readRate, .writeRate:
            guard let n = Int(value), n >= 0 else { throw ConfigurationError("\(given) must be requests per minute, 0 for no limit") }
            if setting == .readRate { readRatePerMinute = n } else { writeRatePerMinute = n }
        case .gazetteer: gazetteerPath = value
        case .popConfig: popConfigPath = value
        case .geocodeUpstream:
            guard value.isEmpty || value.hasPrefix("http://") || value.hasPrefix("https://") else {
                throw ConfigurationError("\(given) must be an http(s) URL")
            }
            geocodeUpstream = value.isEmpty ? nil : value
        case .alertWebhooks:
            let entries = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            do {
                alertWebhooks = try entries.map(AlertWebhookTarget.parse)
            } catch let error as ConfigurationError {
                throw ConfigurationError("\(setting.rawValue): \(error.description)")
            }
        case .headTimeout, .bodyTimeout, .idleTimeout, .natsPingInterval, .writeDeadline:
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0.1, seconds <= 3600 else {
                throw ConfigurationError("\(given) must be seconds, at least 0.1 and at most 3600")
            }
            let duration = Duration.milliseconds(Int64((seconds * 1000).rounded()))
            switch setting {
            case .headTimeout: connectionLimits.headTimeout = duration
            case .bodyTimeout: connectionLimits.bodyTimeout = duration
            case .natsPingInterval: natsPingInterval = duration
            case .writeDeadline: writeDeadline = duration
            default: connectionLimits.idleTimeout = duration
            }
        case .natsMaxPingsOut:
            guard let n = Int(value), (1...100).contains(n) else { throw ConfigurationError("\(given) must be from 1 to 100") }
            natsMaxPingsOut = n
        case .maxConnections:
            guard let n = Int(value), (1...1_000_000).contains(n) else { throw ConfigurationError("\(given) must be from 1 to 1000000") }
            connectionLimits.maxConnections = n
        case .maxConnectionsPerAddress:
            guard let n = Int(value), (1...1_000_000).contains(n) else { throw ConfigurationError("\(given) must be from 1 to 1000000") }
            connectionLimits.maxPerAddress = n
        case .metricsPort:
            if value == "off" { metricsPort = nil; return }
            guard let port = Int(value), (0...65535).contains(port) else { throw ConfigurationError("\(given) is not a port (or off)") }
            metricsPort = port
        case .offleashTokenLifetime:
            guard let seconds = Int(value), (60...(30 * 86_400)).contains(seconds) else {
                throw ConfigurationError("\(given) must be seconds, from 60 to 2592000 (30 days)")
            }
            offleashTokenLifetime = .seconds(seconds)
        case .loginAttemptsPerAddress:
            guard let n = Int(value), n >= 0 else { throw ConfigurationError("\(given) must be failed attempts per 15 minutes, 0 for no limit") }
            loginAttemptsPerAddress = n
        case .trustedProxies:
            guard let proxies = TrustedProxies(parsing: value) else {
                throw ConfigurationError("\(given) must be addresses or IPv4 ranges, comma-separated (10.0.0.5, 172.28.0.0/16)")
            }
            trustedProxies = proxies
        case .apnsKeyFile: apns.keyFile = value.isEmpty ? nil : value
        case .apnsKeyID, .apnsTeamID:
            guard value.isEmpty || (value.count == 10 && value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })) else {
                throw ConfigurationError("\(given) must be Apple's 10-character id (uppercase letters and digits)")
            }
            if setting == .apnsKeyID { apns.keyID = value.isEmpty ? nil : value } else { apns.teamID = value.isEmpty ? nil : value }
        case .apnsSandboxURL, .apnsProductionURL:
            guard value.hasPrefix("https://") else { throw ConfigurationError("\(given) must be an https URL (APNs speaks HTTP/2 over TLS)") }
            if setting == .apnsSandboxURL { apns.sandboxURL = value } else { apns.productionURL = value }
        case .apnsCAFile: apns.caFile = value.isEmpty ? nil : value
        case .fcmServiceAccount: fcm.serviceAccountFile = value.isEmpty ? nil : value
        case .fcmURL:
            guard value.hasPrefix("https://") || value.hasPrefix("http://") else { throw ConfigurationError("\(given) must be an http(s) URL") }
            fcm.url = value
        case .appleKeysURL, .googleKeysURL, .smsURL:
            guard value.hasPrefix("https://") || value.hasPrefix("http://") || (setting == .smsURL && value.isEmpty) else {
                throw ConfigurationError("\(given) must be an http(s) URL")
            }
            switch setting {
            case .appleKeysURL: signIn.appleKeysURL = value
            case .googleKeysURL: signIn.googleKeysURL = value
            default: signIn.smsURL = value.isEmpty ? nil : value
            }
        case .appleAudiences, .googleAudiences:
            let audiences = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !audiences.isEmpty else { throw ConfigurationError("\(given) must name at least one app or client id") }
            if setting == .appleAudiences { signIn.appleAudiences = audiences } else { signIn.googleAudiences = audiences }
        case .smsAccount: signIn.smsAccount = value
        case .smsToken: signIn.smsToken = value
        case .smsFrom: signIn.smsFrom = value
        case .mailURL, .inviteLink:
            guard value.isEmpty || value.hasPrefix("https://") || value.hasPrefix("http://") || (setting == .inviteLink && value.contains("://")) else {
                throw ConfigurationError("\(given) must be a URL")
            }
            if setting == .mailURL { invitations.mailURL = value.isEmpty ? nil : value } else { invitations.link = value.isEmpty ? nil : value }
        case .mailKey: invitations.mailKey = value
        case .paymentsURL:
            guard value.isEmpty || value.hasPrefix("https://") || value.hasPrefix("http://") else { throw ConfigurationError("\(given) must be an http(s) URL") }
            payments.url = value.isEmpty ? nil : value
        case .paymentsKey: payments.key = value
        case .mailFrom:
            guard value.contains("@") else { throw ConfigurationError("\(given) must be an email address") }
            invitations.mailFrom = value
        }
    }

    /// Reads `MUSTER_*` variables.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MusterConfiguration {
        var config = MusterConfiguration()
        for setting in Setting.allCases {
            if let value = environment[setting.rawValue] { try config.set(setting, value) }
        }
        return config
    }

    package var nats: NATSConfiguration {
        NATSConfiguration(url: natsURL, name: "muster-\(instance)", credentialsFile: natsCredentials,
                          pingInterval: natsPingInterval, maxPingsOut: natsMaxPingsOut)
    }

    package var logConfiguration: LogConfiguration {
        var log = LogConfiguration()
        log.replicas = streamReplicas
        log.appendTimeout = writeDeadline
        return log
    }

    package var projectionsDirectory: URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("projections")
    }
}

/// Where and how the notifier reaches APNs.
package struct APNsSettings: Sendable, Equatable {
    package var keyFile: String?
    package var keyID: String?
    package var teamID: String?
    package var sandboxURL = "https://api.sandbox.push.apple.com"
    package var productionURL = "https://api.push.apple.com"
    /// A certificate (PEM) to trust besides the system's: the local stand-in's.
    package var caFile: String?

    package init() {}

    package var isConfigured: Bool { keyFile != nil && keyID != nil && teamID != nil }
}

/// Whose ID tokens sign-in accepts, and where SMS codes go.
package struct SignInSettings: Sendable, Equatable {
    /// Apple's public keys (JWKS) and the app ids (bundle or Services ids) its tokens must name.
    package var appleKeysURL = "https://appleid.apple.com/auth/keys"
    package var appleAudiences = ["com.offleash.ios"]
    /// Google's public keys (JWKS) and the OAuth client ids its tokens must name (OFFLEASH's iOS client).
    package var googleKeysURL = "https://www.googleapis.com/oauth2/v3/certs"
    package var googleAudiences = ["120633628567-nhecmop27e3cvnpofm6592h6ithf9rdo.apps.googleusercontent.com"]
    /// A Twilio-compatible Messages API (`<url>/2010-04-01/Accounts/<account>/Messages.json`): the
    /// real one, or `muster-standins sms`. None: phone sign-in answers 503.
    package var smsURL: String?
    package var smsAccount = ""
    package var smsToken = ""
    package var smsFrom = "+15005550006"

    package init() {}
}

/// Where invitations go: email through a SendGrid-compatible Mail Send API (`<url>/v3/mail/send`,
/// the real one or `muster-standins sms`; none: invitations by email answer 503), texts through
/// the SMS provider of phone sign-in.
package struct InvitationSettings: Sendable, Equatable {
    package var mailURL: String?
    package var mailKey = ""
    package var mailFrom = "invitations@offleash.invalid"
    /// The start of the invite link (the code is appended), e.g. an app's universal link; none:
    /// the message carries the code alone (today's app opens no invite link).
    package var link: String?

    package init() {}
}

/// Stripe's API (`https://api.stripe.com`) or one that answers like it, and the secret key; no
/// URL: checkouts answer 503 when confirmed.
package struct PaymentSettings: Sendable, Equatable {
    package var url: String?
    package var key = ""

    package init() {}
}

/// Where and how the notifier reaches FCM.
package struct FCMSettings: Sendable, Equatable {
    /// The service account JSON (project id, client email, RSA private key, token URI).
    package var serviceAccountFile: String?
    package var url = "https://fcm.googleapis.com"

    package init() {}
}

package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
