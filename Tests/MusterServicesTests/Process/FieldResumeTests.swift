import Foundation
import Glibc
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import MusterEvents
import MusterField
import MusterAppTesting
import MusterLog
import MusterPlatform
import MusterTesting
import Synchronization
import Testing

/// A field device's live socket on a real `muster serve ingest`, killed with SIGKILL while the
/// socket is open; changes land while it is down; the restarted server (its fold starting from a
/// snapshot older than the device's cursor) gives the device, reconnecting with that cursor, each
/// change once.
@Suite("Field live updates resume after kill -9 of the server", .serialized)
struct FieldResumeTests {
    static let project = "6a6a6a6a-0000-4000-8000-000000000001"
    static let (phone, office) = ("6b6b6b6b-0000-4000-8000-000000000001", "6b6b6b6b-0000-4000-8000-000000000002")

    func serveIngest(_ app: TestApp, data: URL, port: Int) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: KillNineTests.binary)
        process.arguments = ["serve", "ingest", "--nats-url", app.env.server.url, "--data-dir", data.path, "--port", "\(port)",
                             "--metrics-port", "off", "--instance", "fieldkill", "--log-level", "warning"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        return process
    }

    /// What one socket heard: each message's record ids and cursor, until the connection ends or `stop` says so.
    final class Heard: Sendable {
        let messages = Mutex<[(ids: [String], cursor: String)]>([])
        let stop = Mutex(false)
        var ids: [String] { messages.withLock { $0.flatMap(\.ids) } }
        var cursor: String? { messages.withLock { $0.last?.cursor } }
    }

    func listen(port: Int, token: String, since: String?, into heard: Heard) async {
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = [.authorization: "Bearer \(token)"]
        let query = since.map { "?since=\($0)" } ?? ""
        // The server's death ends the connection with an error: what was heard until then is the result.
        _ = try? await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/field/live\(query)", configuration: configuration,
                                           logger: Logger(label: "test")) { inbound, _, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message,
                      let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { continue }
                let ids = (json["records"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                heard.messages.withLock { $0.append((ids, json["cursor"] as? String ?? "")) }
                if heard.stop.withLock({ $0 }) { break }
            }
        }
    }

    func push(_ app: TestApp, _ token: String, device: String, _ entity: String, _ id: String, _ fields: String) async throws {
        let now = Timestamp.string(Date())
        let body = #"{"deviceId": "\#(device)", "sentAt": "\#(now)", "mutations": [{"mutationId": "\#(UUID().uuidString)", "entity": "\#(entity)", "#
            + #""id": "\#(id)", "baseVersion": 0, "fields": \#(fields), "changedAt": "\#(now)"}]}"#
        let answer = try await app.request("/api/field/mutations", method: .post, headers: [.authorization: "Bearer \(token)"], json: body)
        #expect(answer.status == .ok && answer.text.contains(#""applied""#), "\(answer.text)")
    }

    func photo(_ app: TestApp, _ token: String, _ id: String) async throws {
        try await push(app, token, device: Self.phone, "photo", id,
                       #"{"projectId": "\#(Self.project)", "takenAt": "\#(Timestamp.string(Date()))", "digest": "\#(String(repeating: "e0", count: 32))"}"#)
    }

    @Test func aSocketResumesFromItsCursorAfterTheServerWasKilled() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        // The test's own ingest stands in for the devices' other way in while the server is down: same log, same signing keys.
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "resume-build", app: "field", name: "Resume Build")
            var tokens: [String: String] = [:]
            var anaId = ""
            for (name, role) in [("mia", "manager"), ("ana", "worker")] {
                let account = try await people.addPerson(People.Registration(orgSlug: "resume-build", email: "\(name)@resume.example", firstName: name,
                                                                             lastName: "Field", phone: nil, password: "Hardhat-\(name)-2026", role: role))
                if name == "ana" { anaId = account.personId }
                let login = try await app.request("/api/field/auth/login", method: .post,
                                                  json: #"{"org_slug": "resume-build", "email": "\#(name)@resume.example", "password": "Hardhat-\#(name)-2026"}"#)
                tokens[name] = try #require(login.json["token"] as? String, "\(login.text)")
            }
            let (mia, ana) = (tokens["mia"] ?? "", tokens["ana"] ?? "")
            try await push(app, mia, device: Self.office, "project", Self.project, #"{"name": "Resume bridge", "latitude": 44.08, "longitude": -103.23}"#)
            let staffed = try await app.request("/api/field/projects/\(Self.project)/members/\(anaId)", method: .put, headers: [.authorization: "Bearer \(mia)"])
            #expect(staffed.status == .noContent, "\(staffed.text)")
            // The company uploaded the photo its records name (a finished upload records this).
            let orgId = try #require(await people.runner.read { $0.orgBySlug["resume-build"] })
            let stored = FileStored(digest: String(repeating: "e0", count: 32), orgId: orgId, personId: anaId, size: 1, type: "image/jpeg")
            try await app.settled("field", at: try await app.log.append(stored).sequence)

            let (port, data) = (try freePort(), app.env.server.directory.appendingPathComponent("fieldkill"))
            var server = try serveIngest(app, data: data, port: port)
            defer { if server.ending == nil { kill(server.processIdentifier, SIGKILL) } }
            try await eventually("serving", timeout: .seconds(30)) { (try? await MetricsTests.get("http://127.0.0.1:\(port)/health"))?.status == 200 }

            // Ana's socket hears the project, then her first photo; the server is killed with the socket open,
            // after it saved a snapshot with the project and before it saved one with the photo.
            let photos = (0..<4).map { _ in UUID().uuidString.lowercased() }
            let before = Heard()
            let snapshots = SnapshotStore(directory: data.appendingPathComponent("projections"))
            let saved = { (try? snapshots.load(FieldBook.self, name: FieldProjection.name, version: FieldProjection.version))?.checkpoint ?? 0 }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await listen(port: port, token: ana, since: nil, into: before) }
                try await eventually("the project heard", timeout: .seconds(20)) { before.ids == [Self.project] }
                try await eventually("a snapshot with the project saved", timeout: .seconds(20)) { saved() > 0 }
                try await photo(app, ana, photos[0])
                try await eventually("the first photo heard", timeout: .seconds(20)) { before.ids == [Self.project, photos[0]] }
                kill(server.processIdentifier, SIGKILL)
                try await server.waitForExit(within: .seconds(30), "muster serve ingest after SIGKILL")
                try await group.next() // the socket ended with the server
            }
            #expect(server.ending == .killed(signal: SIGKILL))
            let killedAt = try #require(before.cursor.flatMap(PullCursor.init))
            // The snapshot is saved on its own clock: on a loaded machine it can catch the photo before
            // the kill. The resume below must hold either way; this run then shows the cursor-at-the-snapshot case.
            if saved() >= killedAt.position { print("field resume: the snapshot had the photo before the kill (cursor at the snapshot, not ahead)") }

            // Two photos land while the server is down; it restarts from what it had saved and catches up.
            try await photo(app, ana, photos[1])
            try await photo(app, ana, photos[2])
            server = try serveIngest(app, data: data, port: port)
            try await eventually("serving again", timeout: .seconds(30)) { (try? await MetricsTests.get("http://127.0.0.1:\(port)/health"))?.status == 200 }

            // Reconnecting with the last cursor it received: the two it missed, once each, then the next as it lands.
            let after = Heard()
            let cursor = killedAt.description
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await listen(port: port, token: ana, since: cursor, into: after) }
                try await eventually("the missed photos heard", timeout: .seconds(30)) { after.ids.count >= 2 }
                try await photo(app, ana, photos[3])
                after.stop.withLock { $0 = true }
                try await eventually("the next photo heard", timeout: .seconds(20)) { after.ids.count >= 3 }
                group.cancelAll()
            }
            #expect(after.ids == Array(photos[1...3]), "nothing missed, nothing twice: \(after.ids) after \(before.ids)")

            server.terminate()
            try await server.waitForExit(within: .seconds(30), "muster serve ingest after SIGTERM")
        }
    }
}
