package import MusterRuntime

/// The domain's association files, from the apps' link paths and the installed apps that may
/// open them (`AppLinkSettings`). Pure.
package enum AppLinks {
    /// `/.well-known/apple-app-site-association`: each app's ids with its paths; its ids also for
    /// passwords saved from the consoles (`webcredentials`).
    package struct AppleFile: Encodable, Sendable, Equatable {
        package struct AppLinks: Encodable, Sendable, Equatable { package var details: [Detail] }
        package struct Detail: Encodable, Sendable, Equatable {
            package var appIDs: [String]
            package var components: [Component]
        }
        package struct Component: Encodable, Sendable, Equatable {
            package var path: String
            package var comment: String
            enum CodingKeys: String, CodingKey {
                case path = "/"
                case comment
            }
        }
        package struct Credentials: Encodable, Sendable, Equatable { package var apps: [String] }

        package var applinks: AppLinks
        package var webcredentials: Credentials
    }

    /// One statement of `/.well-known/assetlinks.json`.
    package struct AndroidStatement: Encodable, Sendable, Equatable {
        package struct Target: Encodable, Sendable, Equatable {
            package var namespace = "android_app"
            package var packageName: String
            package var fingerprints: [String]
            enum CodingKeys: String, CodingKey {
                case namespace
                case packageName = "package_name"
                case fingerprints = "sha256_cert_fingerprints"
            }
        }

        package var relation = ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"]
        package var target: Target
    }

    /// Apps with link paths, by name, in name order.
    static func linked(_ apps: AppDirectory) -> [AppDirectory.Entry] {
        apps.entries.values.filter { !$0.linkPaths.isEmpty }.sorted { $0.name < $1.name }
    }

    package static func apple(_ apps: AppDirectory, _ settings: AppLinkSettings) -> AppleFile {
        let details = linked(apps).compactMap { app -> AppleFile.Detail? in
            guard let ids = settings.iOS[app.name], !ids.isEmpty else { return nil }
            return AppleFile.Detail(appIDs: ids, components: app.linkPaths.map { AppleFile.Component(path: $0, comment: "\(app.name) links") })
        }
        let credentials = settings.iOS.keys.sorted().flatMap { settings.iOS[$0] ?? [] }
        return AppleFile(applinks: .init(details: details), webcredentials: .init(apps: credentials))
    }

    package static func android(_ apps: AppDirectory, _ settings: AppLinkSettings) -> [AndroidStatement] {
        linked(apps).flatMap { app -> [AndroidStatement] in
            let entries = settings.android[app.name] ?? []
            var packages: [String] = []
            var fingerprints: [String: [String]] = [:]
            for entry in entries {
                if fingerprints[entry.packageName] == nil { packages.append(entry.packageName) }
                fingerprints[entry.packageName, default: []].append(entry.fingerprint)
            }
            return packages.map { AndroidStatement(target: .init(packageName: $0, fingerprints: fingerprints[$0] ?? [])) }
        }
    }

    /// The app whose link paths take `path`, if any.
    package static func app(opening path: String, in apps: AppDirectory) -> AppDirectory.Entry? {
        linked(apps).first { app in app.linkPaths.contains { matches(path, $0) } }
    }

    /// Apple's matching, as far as Muster's paths use it: `*` matches any run of characters.
    static func matches(_ path: String, _ pattern: String) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return path == pattern }
        return path.hasPrefix(pattern[..<star]) && path.hasSuffix(pattern[pattern.index(after: star)...])
            && path.count >= pattern.count - 1
    }
}
