import Foundation
import MusterRuntime

/// Which installed apps may open Muster's links (`MusterApp.linkPaths`): the iOS app ids
/// (`TEAMID.bundle.id`, as Apple's associated-domains file names them) and the Android packages
/// with the SHA-256 fingerprints of their signing certificates, each under the app it is.
/// None: the association files are served empty and every link opens in the browser.
///
///     MUSTER_APP_LINKS_IOS=offleash=ABCDE12345.com.offleash.ios,pop=ABCDE12345.com.peopleoverpartysd.pop
///     MUSTER_APP_LINKS_ANDROID=offleash=com.offleash.android@14:6D:E9:…:C5 (32 bytes, hex, colons)
package struct AppLinkSettings: AppSettings, Equatable {
    package struct Android: Sendable, Equatable {
        package var packageName: String
        package var fingerprint: String
    }

    /// By app: its iOS app ids.
    package var iOS: [String: [String]] = [:]
    /// By app: its Android packages and certificates (a package signed by two keys is named twice).
    package var android: [String: [Android]] = [:]

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case iOS = "MUSTER_APP_LINKS_IOS"
        case android = "MUSTER_APP_LINKS_ANDROID"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .iOS:
            iOS = [:]
            for (app, id) in try Self.entries(value) {
                guard Self.isAppID(id) else {
                    throw ConfigurationError("\(id) is not an iOS app id (a 10-character team id, a dot, the bundle id)")
                }
                iOS[app, default: []].append(id)
            }
        case .android:
            android = [:]
            for (app, entry) in try Self.entries(value) {
                let parts = entry.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count == 2, Self.isPackage(parts[0]), Self.isFingerprint(parts[1]) else {
                    throw ConfigurationError("\(entry) is not package@fingerprint (a package name, @, 32 hex bytes joined by colons)")
                }
                android[app, default: []].append(Android(packageName: String(parts[0]), fingerprint: parts[1].uppercased()))
            }
        }
    }

    /// `app=value` entries, comma-separated; empty: none.
    static func entries(_ value: String) throws -> [(app: String, value: String)] {
        try value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { entry in
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) }) else {
                throw ConfigurationError("each entry must be app=value, the app's name in lowercase: \(entry)")
            }
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// `ABCDE12345.com.example.app`: Apple's team id (10 uppercase letters or digits), a dot, a bundle id.
    static func isAppID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count > 12, bytes.count <= 160, bytes[10] == UInt8(ascii: ".") else { return false }
        let team = bytes[..<10].allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) }
        let bundle = bytes[11...].allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 46 }
        return team && bundle
    }

    /// `com.example.app`: two or more segments of letters, digits and underscores, each starting with a letter.
    static func isPackage(_ name: Substring) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        return segments.count >= 2 && name.utf8.count <= 255 && segments.allSatisfy { segment in
            guard let first = segment.utf8.first, (first >= 65 && first <= 90) || (first >= 97 && first <= 122) else { return false }
            return segment.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        }
    }

    /// 32 bytes in hex, joined by colons (`keytool -list -v` prints them so).
    static func isFingerprint(_ text: Substring) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
