import Crypto
import Foundation
import Hummingbird
package import MusterStandIns
package import MusterPush
package import MusterRuntime
import MusterTesting

/// The APNs stand-in on a free port with a fresh certificate (`scripts/make-certs.sh`) and a team
/// signing key written as a `.p8` file, as `make run APNS=standin` sets it up.
package struct StandIn: Sendable {
    package let port: Int
    package let certificate: String
    package let keyFile: String
    package let recorder: APNsStandIn.Recorder
    package static let keyID = "ABC123DEFG"
    package static let teamID = "TEAM123456"

    package var url: String { "https://127.0.0.1:\(port)" }

    /// The notifier's settings for this stand-in.
    package func configure(_ configuration: inout MusterConfiguration) {
        configuration[APNsSettings.self].keyFile = keyFile
        configuration[APNsSettings.self].keyID = Self.keyID
        configuration[APNsSettings.self].teamID = Self.teamID
        configuration[APNsSettings.self].sandboxURL = url
        configuration[APNsSettings.self].productionURL = url
        configuration[APNsSettings.self].caFile = certificate
    }

    package func signer() throws -> APNsSigningKey {
        try APNsSigningKey(contentsOf: keyFile, keyID: Self.keyID, teamID: Self.teamID)
    }

    /// A stand-in on a free port for `body`; its list shows the last `keep` deliveries.
    package static func with<T: Sendable>(keep: Int = 100_000, _ body: @escaping @Sendable (StandIn) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("muster-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certs = try await runToEnd(Repository.path("scripts/make-certs.sh"), [folder.path], within: .seconds(60))
        guard certs.status == 0 else { throw TestServerError("make-certs.sh failed: \(certs.error.suffix(2000))") }
        let key = P256.Signing.PrivateKey()
        let keyFile = folder.appendingPathComponent("AuthKey.p8").path
        try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)

        let recorder = APNsStandIn.Recorder(keep: keep)
        let port = try freePort()
        let standIn = StandIn(port: port, certificate: folder.appendingPathComponent("cert.pem").path, keyFile: keyFile, recorder: recorder)
        let app = try APNsStandIn.application(host: "127.0.0.1", port: port, certificate: standIn.certificate,
                                              key: folder.appendingPathComponent("key.pem").path, recorder: recorder,
                                              publicKey: key.publicKey)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await app.runService(); return nil }
            try await eventually("the stand-in listens") { (try? RawSocket(port: port)) != nil }
            let result = try await body(standIn)
            group.cancelAll()
            return result
        }
    }
}
