import MusterPlatform
import MusterRuntime

/// OFFLEASH's own settings: how long its tokens live, which app ids Apple's and Google's tokens
/// must name, and where checkouts are charged.
package struct OFFLEASHSettings: AppSettings, Equatable {
    /// How long an access token lives. Today's app never refreshes, so this is the old server's
    /// 24 h: shorter would sign its customers out in the middle of the day.
    package var tokenLifetime: Duration = .seconds(86_400)
    /// The bundle or Services ids Sign in with Apple's tokens must name.
    package var appleAudiences = ["com.offleash.ios"]
    /// The OAuth client ids Google's tokens must name (the app's iOS client).
    package var googleAudiences = ["120633628567-nhecmop27e3cvnpofm6592h6ithf9rdo.apps.googleusercontent.com"]
    /// Stripe's API (`https://api.stripe.com`) or one that answers like it (`muster-standins
    /// payments`), and the secret key; no URL: checkouts answer 503 when confirmed.
    package var paymentsURL: String?
    package var paymentsKey = ""

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case tokenLifetime = "MUSTER_OFFLEASH_TOKEN_SECONDS"
        case appleAudiences = "MUSTER_OFFLEASH_APPLE_AUDIENCES"
        case googleAudiences = "MUSTER_OFFLEASH_GOOGLE_AUDIENCES"
        case paymentsURL = "MUSTER_PAYMENTS_URL"
        case paymentsKey = "MUSTER_PAYMENTS_KEY"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .tokenLifetime:
            let longest = Int(People.longestAccessLifetime.components.seconds)
            tokenLifetime = .seconds(try SettingValue.integer(value, 60...longest, "seconds, from 60 to \(longest)"))
        case .appleAudiences: appleAudiences = try SettingValue.list(value, of: "app id")
        case .googleAudiences: googleAudiences = try SettingValue.list(value, of: "client id")
        case .paymentsURL: paymentsURL = try SettingValue.url(value)
        case .paymentsKey: paymentsKey = value
        }
    }
}
