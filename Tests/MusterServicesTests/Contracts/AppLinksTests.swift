import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterPlatform
import MusterRuntime
import Testing

/// Universal links and Android app links: the domain's association files name each installed app
/// with the paths its module declares, and a link opened in a browser gets a page, not an error.
@Suite("Universal and app links: association files from the apps' declarations and settings")
struct AppLinksTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")

    @Test func associationFilesNameEachConfiguredAppWithItsPaths() async throws {
        try await apps.withTestApp(["ingest"], configure: {
            try? $0[AppLinkSettings.self].set(.iOS, "offleash=ABCDE12345.com.offleash.ios, field=ABCDE12345.com.muster.field")
            try? $0[AppLinkSettings.self].set(.android, "offleash=com.offleash.android@\(Self.fingerprint)")
        }) { app in
            let apple = try await app.request("/.well-known/apple-app-site-association")
            #expect(apple.status == .ok && apple.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(apple.headers[.cacheControl] == "public, max-age=3600")
            let file = try #require(try JSONSerialization.jsonObject(with: Data(apple.text.utf8)) as? [String: Any])
            let details = try #require((file["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
            let byApp = Dictionary(uniqueKeysWithValues: details.map { (($0["appIDs"] as? [String])?.first ?? "", $0["components"] as? [[String: Any]] ?? []) })
            #expect(byApp.keys.sorted() == ["ABCDE12345.com.muster.field", "ABCDE12345.com.offleash.ios"], "only the apps given ids")
            #expect(byApp["ABCDE12345.com.offleash.ios"]?.first?["/"] as? String == "/offleash/link/*")
            #expect(byApp["ABCDE12345.com.muster.field"]?.first?["/"] as? String == "/field/link/*")
            #expect(((file["webcredentials"] as? [String: Any])?["apps"] as? [String])?.count == 2)

            let android = try await app.request("/.well-known/assetlinks.json")
            #expect(android.status == .ok)
            let statements = try #require(try JSONSerialization.jsonObject(with: Data(android.text.utf8)) as? [[String: Any]])
            #expect(statements.count == 1)
            let target = try #require(statements.first?["target"] as? [String: Any])
            #expect(target["namespace"] as? String == "android_app" && target["package_name"] as? String == "com.offleash.android")
            #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
            #expect((statements.first?["relation"] as? [String])?.contains("delegate_permission/common.handle_all_urls") == true)

            // A link opened where the app is not installed: a page that says what it is, never a 404.
            let page = try await app.request("/offleash/link/booking/b0")
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("opens in the app") && page.headers[.contentSecurityPolicy] != nil)
            #expect(try await app.request("/pop/link/event/e1").text.contains("no installed app"), "pop has no ids here")
            #expect(try await app.request("/offleash/link/booking").status == .notFound, "a link names a screen and an id")
        }
    }

    @Test func withoutSettingsTheFilesAreServedEmpty() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let apple = try await app.request("/.well-known/apple-app-site-association")
            #expect(apple.status == .ok && apple.text == #"{"applinks":{"details":[]},"webcredentials":{"apps":[]}}"#)
            #expect(try await app.request("/.well-known/assetlinks.json").text == "[]")
        }
    }

    @Test func badSettingsSayWhatTheyMustBe() {
        var settings = AppLinkSettings()
        #expect(throws: ConfigurationError.self) { try settings.set(.iOS, "offleash=com.offleash.ios") } // no team id
        #expect(throws: ConfigurationError.self) { try settings.set(.iOS, "OFFLEASH=ABCDE12345.com.offleash.ios") }
        #expect(throws: ConfigurationError.self) { try settings.set(.android, "offleash=com.offleash.android@AB:CD") }
        #expect(throws: ConfigurationError.self) { try settings.set(.android, "offleash=1com.offleash@\(Self.fingerprint)") }
        #expect(throws: Never.self) { try settings.set(.android, "offleash=com.offleash.android@\(Self.fingerprint.lowercased())") }
        #expect(settings.android["offleash"]?.first?.fingerprint == Self.fingerprint, "kept in uppercase, as Android compares them")
        #expect(throws: Never.self) { try settings.set(.iOS, "") }
        #expect(settings.iOS.isEmpty)
    }
}
