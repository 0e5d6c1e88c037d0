import MusterRuntime

/// Where the links in notification mails point: the address people reach this server at.
package struct NotificationSettings: AppSettings, Equatable {
    package var publicURL = "http://127.0.0.1:8080"

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case publicURL = "MUSTER_PUBLIC_URL"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .publicURL: publicURL = try SettingValue.url(value, optional: false) ?? publicURL
        }
    }
}
