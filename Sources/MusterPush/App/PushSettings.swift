import MusterRuntime

/// Where and how the notifier reaches APNs: the token-signing key (`.p8`), its id and the team's;
/// without all three every iOS push is recorded as failed with `NoProvider`.
package struct APNsSettings: AppSettings, Equatable {
    package var keyFile: String?
    package var keyID: String?
    package var teamID: String?
    package var sandboxURL = "https://api.sandbox.push.apple.com"
    package var productionURL = "https://api.push.apple.com"
    /// A certificate (PEM) to trust besides the system's: the local stand-in's.
    package var caFile: String?

    package init() {}

    package var isConfigured: Bool { keyFile != nil && keyID != nil && teamID != nil }

    package enum Variable: String, CaseIterable, Sendable {
        case keyFile = "MUSTER_APNS_KEY_FILE"
        case keyID = "MUSTER_APNS_KEY_ID"
        case teamID = "MUSTER_APNS_TEAM_ID"
        case sandboxURL = "MUSTER_APNS_SANDBOX_URL"
        case productionURL = "MUSTER_APNS_PRODUCTION_URL"
        case caFile = "MUSTER_APNS_CA_FILE"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .keyFile: keyFile = value.isEmpty ? nil : value
        case .keyID, .teamID:
            guard value.isEmpty || (value.count == 10 && value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })) else {
                throw ConfigurationError("must be Apple's 10-character id (uppercase letters and digits)")
            }
            if variable == .keyID { keyID = value.isEmpty ? nil : value } else { teamID = value.isEmpty ? nil : value }
        case .sandboxURL, .productionURL:
            // APNs speaks HTTP/2 over TLS only.
            let url = try SettingValue.url(value, secure: true, optional: false) ?? value
            if variable == .sandboxURL { sandboxURL = url } else { productionURL = url }
        case .caFile: caFile = value.isEmpty ? nil : value
        }
    }
}

/// Where and how the notifier reaches FCM.
package struct FCMSettings: AppSettings, Equatable {
    /// The service account JSON (project id, client email, RSA private key, token URI).
    package var serviceAccountFile: String?
    package var url = "https://fcm.googleapis.com"

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case serviceAccountFile = "MUSTER_FCM_SERVICE_ACCOUNT"
        case url = "MUSTER_FCM_URL"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .serviceAccountFile: serviceAccountFile = value.isEmpty ? nil : value
        case .url: url = try SettingValue.url(value, optional: false) ?? url
        }
    }
}
