import Foundation
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterTesting
import Testing

/// `muster backup` and `muster restore` as an operator runs them: through MUSTER_NATS_URL, a
/// file `tar` reads, a restore that refuses what exists, and a damaged file refused before the
/// server is touched.
@Suite("muster backup and restore", .serialized)
struct BackupCommandTests {
    func muster(_ arguments: [String], nats: String) async throws -> (status: Int32, output: String) {
        let result = try await runToEnd(KillNineTests.binary, arguments, environment: ProcessInfo.processInfo.environment.merging(["MUSTER_NATS_URL": nats]) { $1 }, within: .seconds(120))
        return (result.status, result.output + result.error)
    }

    @Test func aBackupRestoresIntoAnEmptyServerAndNeverOverAFullOne() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            for _ in 0 ..< 300 { _ = try await env.log.append(issuedKey(scopes: ["opl:read"]).event) }
            let folder = env.dataDirectory.deletingLastPathComponent()
            let file = folder.appendingPathComponent("nightly.tar").path

            let backup = try await muster(["backup", "--output", file], nats: env.server.url)
            #expect(backup.status == 0, "\(backup.output)")
            #expect(backup.output.contains("EVENTS: 300 messages, sequences 1–300") && backup.output.contains("sha256 "), "\(backup.output)")
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "a backup holds everything: readable by its owner only")
            let listed = try await runToEnd("/usr/bin/tar", ["tf", file], within: .seconds(30))
            #expect(listed.status == 0 && listed.output.contains("streams/EVENTS.snapshot") && listed.output.contains("manifest.json"), "\(listed.output)")
            let manifest = try await runToEnd("/usr/bin/tar", ["xOf", file, "manifest.json"], within: .seconds(30))
            let decoded = try BackupManifest.decode(Array(manifest.output.utf8))
            #expect(decoded.streams.contains { $0.name == "EVENTS" && $0.lastSequence == 300 })

            let again = try await muster(["backup", "--output", file], nats: env.server.url)
            #expect(again.status != 0 && again.output.contains("never overwrites"), "\(again.output)")

            let intact = try await muster(["restore", "--verify-only", file], nats: env.server.url)
            #expect(intact.status == 0 && intact.output.contains("is intact"), "\(intact.output)")

            // Into the same server: refused, nothing changed.
            let over = try await muster(["restore", file], nats: env.server.url)
            #expect(over.status != 0 && over.output.contains("already has") && over.output.contains("EVENTS"), "\(over.output)")
            #expect(try await env.log.jetStream.streamInfo("EVENTS").state.lastSeq == 300)

            // Into a new server: every stream, the same sequences.
            let target = try await NATSTestServer.start()
            defer { target.stop() }
            let restored = try await muster(["restore", file], nats: target.url)
            #expect(restored.status == 0 && restored.output.contains("EVENTS: 300 messages up to sequence 300"), "\(restored.output)")
            let replaced = try await muster(["restore", "--replace", file], nats: target.url)
            #expect(replaced.status == 0, "\(replaced.output)")

            // A damaged copy (one byte of a stream's snapshot changed): refused before anything changes.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            bytes[1024] ^= 0xff
            let damaged = folder.appendingPathComponent("damaged.tar").path
            try bytes.write(to: URL(fileURLWithPath: damaged))
            let refused = try await muster(["restore", "--replace", damaged], nats: target.url)
            #expect(refused.status != 0 && refused.output.contains("SHA-256") && refused.output.contains("nothing was changed"), "\(refused.output)")
            // A truncated one, and a file that is no backup at all.
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: damaged))
            let truncated = try await muster(["restore", damaged], nats: target.url)
            #expect(truncated.status != 0 && truncated.output.contains("truncated"), "\(truncated.output)")
            try Data("not a backup\n".utf8).write(to: URL(fileURLWithPath: damaged))
            let garbage = try await muster(["restore", damaged], nats: target.url)
            #expect(garbage.status != 0 && garbage.output.contains("restore failed"), "\(garbage.output)")
        }
    }
}
