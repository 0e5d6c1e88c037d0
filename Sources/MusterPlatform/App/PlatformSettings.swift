import MusterRuntime

/// Where sign-in checks other providers' tokens and sends its texts, and how many failed sign-ins
/// one address may make. Which app ids a provider's token must name is the app's own setting.
package struct SignInSettings: AppSettings, Equatable {
    /// Apple's and Google's public keys (JWKS).
    package var appleKeysURL = "https://appleid.apple.com/auth/keys"
    package var googleKeysURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// A Twilio-compatible Messages API (`<url>/2010-04-01/Accounts/<account>/Messages.json`): the
    /// real one, or `muster-standins sms`. None: phone sign-in answers 503.
    package var smsURL: String?
    package var smsAccount = ""
    package var smsToken = ""
    package var smsFrom = "+15005550006"
    /// Failed sign-ins one client address may make in 15 minutes (0: no limit per address; the
    /// limit per account, 5 failures, always holds). Successes are not counted: an office or a
    /// carrier's NAT signs in all day; an attacker guessing passwords fails.
    package var loginAttemptsPerAddress = 300
    /// Threads that compute password hashes (argon2id, 19 MiB each while it runs). Nil: one fewer
    /// than the cores, at least one, so a flood of sign-ins never takes every core from the rest
    /// (tokens, bookings, the folds); past the threads, sign-ins wait in the hasher's queue.
    package var passwordHashThreads: Int?

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case appleKeysURL = "MUSTER_APPLE_KEYS_URL"
        case googleKeysURL = "MUSTER_GOOGLE_KEYS_URL"
        case smsURL = "MUSTER_SMS_URL"
        case smsAccount = "MUSTER_SMS_ACCOUNT"
        case smsToken = "MUSTER_SMS_TOKEN"
        case smsFrom = "MUSTER_SMS_FROM"
        case loginAttemptsPerAddress = "MUSTER_LOGIN_ATTEMPTS_PER_ADDRESS"
        case passwordHashThreads = "MUSTER_PASSWORD_HASH_THREADS"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .appleKeysURL: appleKeysURL = try SettingValue.url(value, optional: false) ?? appleKeysURL
        case .googleKeysURL: googleKeysURL = try SettingValue.url(value, optional: false) ?? googleKeysURL
        case .smsURL: smsURL = try SettingValue.url(value)
        case .smsAccount: smsAccount = value
        case .smsToken: smsToken = value
        case .smsFrom: smsFrom = value
        case .loginAttemptsPerAddress:
            loginAttemptsPerAddress = try SettingValue.integer(value, 0...Int.max, "failed attempts per 15 minutes, 0 for no limit")
        case .passwordHashThreads:
            passwordHashThreads = try SettingValue.integer(value, 1...256, "threads hashing passwords")
        }
    }
}

/// Where invitations go: email through a SendGrid-compatible Mail Send API (`<url>/v3/mail/send`,
/// the real one or `muster-standins sms`; none: invitations by email answer 503), texts through
/// the SMS provider of sign-in (`SignInSettings`).
package struct InvitationSettings: AppSettings, Equatable {
    package var mailURL: String?
    package var mailKey = ""
    package var mailFrom = "invitations@muster.invalid"
    /// The start of the invite link (the code is appended), e.g. an app's universal link; none:
    /// the message carries the code alone.
    package var link: String?

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case mailURL = "MUSTER_MAIL_URL"
        case mailKey = "MUSTER_MAIL_KEY"
        case mailFrom = "MUSTER_MAIL_FROM"
        case link = "MUSTER_INVITE_LINK"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .mailURL: mailURL = try SettingValue.url(value)
        case .mailKey: mailKey = value
        case .mailFrom:
            guard value.contains("@") else { throw ConfigurationError("must be an email address") }
            mailFrom = value
        case .link:
            guard value.isEmpty || value.contains("://") else { throw ConfigurationError("must be a URL") }
            link = value.isEmpty ? nil : value
        }
    }
}
