import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import MusterAppTesting
import MusterEvents
import MusterField
import MusterPlatform
import MusterPush
import MusterRuntime
import MusterTesting
import NIOWebSocket
import Synchronization
import Testing

/// Live updates over a real WebSocket on the process's own HTTP port.
@Suite("Field live updates: a WebSocket told of each change, resuming from its cursor without a gap or a duplicate")
struct FieldLiveTests {
    /// Opens the live socket with `token` and reads until the server closes it: its close frame.
    /// `opened` hears once when the first message came: the socket is open and being watched.
    static func untilClosed(port: Int, token: String, opened: AsyncStream<Void>.Continuation? = nil) async throws -> WebSocketCloseFrame? {
        defer { opened?.finish() }
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = [.authorization: "Bearer \(token)"]
        return try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/field/live", configuration: configuration,
                                                 logger: Logger(label: "test")) { inbound, _, _ in
            for try await _ in inbound.messages(maxSize: 1 << 20) { opened?.yield() }
        }
    }

    /// The messages one connection received, kept past a deadline that ends it.
    final class Received: Sendable {
        let messages = Mutex<[Data]>([])
    }

    /// What one connection received before it closed itself after `count` messages with records.
    /// `opened` hears once when the first message came: the socket is open, the server has sent what
    /// the cursor had not seen, and a change made from then on reaches it live (a fixed sleep before
    /// the change hung CI, where the socket opened late and its first page held both records). Past
    /// `deadline` it stops, so a change never heard fails the test instead of hanging the run.
    /// - Parameter held: when given, the socket stays open after `count` messages until this stream ends.
    static func listen(port: Int, token: String, since: String?, until count: Int, opened: AsyncStream<Void>.Continuation? = nil,
                       held: AsyncStream<Void>? = nil, deadline: Duration = .seconds(30)) async throws -> [[String: Any]] {
        defer { opened?.finish() }
        let received = Received()
        let configuration = {
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [.authorization: "Bearer \(token)"]
            return configuration
        }()
        let query = since.map { "?since=\($0)" } ?? ""
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/field/live\(query)", configuration: configuration,
                                                  logger: Logger(label: "test")) { inbound, _, _ in
                    var withRecords = 0
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        received.messages.withLock { $0.append(Data(text.utf8)) }
                        opened?.yield()
                        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
                        if !((json?["records"] as? [Any])?.isEmpty ?? true) { withRecords += 1 }
                        guard withRecords >= count else { continue }
                        if let held { for await _ in held {} }
                        break
                    }
                }
            }
            group.addTask { try await Task.sleep(for: deadline) }
            defer { group.cancelAll() }
            try await group.next()
        }
        return received.messages.withLock { $0 }.compactMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
    }

    /// Returns once a `listen` given `stream`'s continuation has its first message (or has ended).
    static func untilOpened(_ stream: AsyncStream<Void>) async {
        for await _ in stream { return }
    }

    /// The crew on the staffed project, Ben added beside Ana.
    static func crewOfTwo(_ app: TestApp) async throws -> FieldSyncTests.Crew {
        let crew = try await FieldSyncTests.crew(app)
        try await FieldSyncTests.staffedProject(app, crew)
        let ben = try await app.request("/api/field/projects/\(FieldSyncTests.project)/members/\(crew.benId)", method: .put,
                                        headers: FieldSyncTests.bearer(crew.manager))
        #expect(ben.status == .noContent)
        return crew
    }

    static func ids(_ messages: [[String: Any]]) -> [String] {
        messages.flatMap { ($0["records"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
    }

    @Test func aSocketHearsEachChangeAndResumesFromItsCursor() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            let crew = try await FieldSyncTests.crew(app)
            try await FieldSyncTests.staffedProject(app, crew)

            // Ana's phone connects from the start: it hears the project, then her photo as it lands.
            let photo = UUID().uuidString.lowercased()
            let (opened, signal) = AsyncStream<Void>.makeStream()
            async let heard = Self.listen(port: port, token: crew.ana, since: nil, until: 2, opened: signal)
            await Self.untilOpened(opened)
            let now = Timestamp.string(Date())
            try await FieldSyncTests.push(app, crew.ana, FieldSyncTests.batch(device: FieldSyncTests.phone, sentAt: now, [
                FieldSyncTests.mutation("photo", photo, base: 0, at: now,
                                        #"{"projectId": "\#(FieldSyncTests.project)", "takenAt": "\#(now)", "digest": "\#(String(repeating: "ab", count: 32))"}"#),
            ]))
            let first = try await heard
            #expect(Self.ids(first) == [FieldSyncTests.project, photo], "\(first)")
            let cursor = try #require(first.last?["cursor"] as? String)

            // Offline, a second photo lands; reconnecting with the last cursor brings it alone.
            let second = UUID().uuidString.lowercased()
            try await FieldSyncTests.uploaded(app, String(repeating: "cd", count: 32))
            try await FieldSyncTests.push(app, crew.ana, FieldSyncTests.batch(device: FieldSyncTests.phone, sentAt: now, [
                FieldSyncTests.mutation("photo", second, base: 0, at: now,
                                        #"{"projectId": "\#(FieldSyncTests.project)", "takenAt": "\#(now)", "digest": "\#(String(repeating: "cd", count: 32))"}"#),
            ]))
            let resumed = try await Self.listen(port: port, token: crew.ana, since: cursor, until: 1)
            #expect(Self.ids(resumed) == [second], "\(resumed)")

            // Without a token, or without the upgrade, the route says why.
            #expect(try await app.request("/api/field/live").status == .unauthorized)
            #expect(try await app.request("/api/field/live", headers: FieldSyncTests.bearer(crew.ana)).status.code == 426)
            // An upgrade refused is answered as the plain route answers, with a JSON body (it was an
            // empty 400: point 9 of the authorization review).
            for (authorization, status) in [("Bearer not-a-token", "401"), ("", "401"), ("Bearer \(crew.ana)", "422")] {
                let socket = try RawSocket(port: port)
                let query = status == "422" ? "?since=nonsense" : ""
                try socket.send("GET /api/field/live\(query) HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                + (authorization.isEmpty ? "" : "Authorization: \(authorization)\r\n") + "\r\n")
                let answer = await offThread { socket.receive(wait: .seconds(3)) }
                #expect(answer.hasPrefix("HTTP/1.1 \(status)") && answer.contains(#"{"error":"#), "\(answer)")
            }
        }
    }

    @Test func aSocketClosesWhenItsTokenExpires() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            _ = try await FieldSyncTests.crew(app)
            // A field token lives 12 h; one of 3 s, signed the same way, stands in for it.
            var policy = FieldApp.accounts.policy
            policy.accessLifetime = .seconds(3)
            let shortLived = try await People.shared(in: app.env.environment)
                .login(orgSlug: "acme-build", email: "ana@acme.example", password: "Hardhat-ana-2026", address: "127.0.0.1", policy: policy)
            let token = shortLived.accessToken
            let opened = ContinuousClock.now
            let close = try await withThrowingTaskGroup(of: WebSocketCloseFrame?.self) { group in
                group.addTask { try await Self.untilClosed(port: port, token: token) }
                group.addTask { try await Task.sleep(for: .seconds(20)); return nil } // never closed: fails below, does not hang
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            let lasted = ContinuousClock.now - opened
            #expect(close?.closeCode == .policyViolation && close?.reason?.contains("sign in") == true, "\(String(describing: close))")
            #expect(lasted < .seconds(10), "closed \(lasted) after opening, with a token of 3 s")
        }
    }

    /// When something happened, across tasks.
    final class Moment: Sendable {
        let at = Mutex<ContinuousClock.Instant?>(nil)
    }

    /// Point 9 of the authorization review: a session that ended kept its socket up to 60 s.
    @Test func aSocketClosesAsItsSessionEnds() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            _ = try await FieldSyncTests.crew(app)
            let people = People.shared(in: app.env.environment)
            let signedIn = try await people.login(orgSlug: "acme-build", email: "ana@acme.example", password: "Hardhat-ana-2026",
                                                  address: "127.0.0.1", policy: FieldApp.accounts.policy)
            let token = signedIn.accessToken
            let claims = try await people.validate(token, app: "field")
            let ended = Moment()
            let (opened, opening) = AsyncStream<Void>.makeStream()
            let close = try await withThrowingTaskGroup(of: WebSocketCloseFrame?.self) { group in
                group.addTask { try await Self.untilClosed(port: port, token: token, opened: opening) }
                group.addTask {
                    var first = opened.makeAsyncIterator()
                    _ = await first.next() // connected and heard its first page (a fixed second was too short beside the whole suite)
                    try await people.logout(claims)
                    ended.at.withLock { $0 = .now }
                    try await Task.sleep(for: .seconds(20)) // never closed: fails below, does not hang
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            let after = try #require(ended.at.withLock { $0 }.map { ContinuousClock.now - $0 })
            #expect(close?.closeCode == .policyViolation, "\(String(describing: close))")
            // The close follows the fold's reading of the sign-out (no polling: the recheck is 60 s), well
            // under 2 s alone; beside the whole suite on two loaded cores it was once 2.4 s, so the
            // bound here is what tells event from poll: 5 s.
            print("field live: the socket closed \(after) after its session ended")
            #expect(after < .seconds(5), "closed \(after) after the session ended")
        }
    }

    /// Any change to a crew's records wakes the devices of the crew who are off the live socket
    /// with a silent push (the notifier), so their app syncs in the background; the one who made the
    /// change and those connected get none.
    @Test func aChangeWakesTheCrewOffTheSocketSilently() async throws {
        try await apps.withTestApp(["ingest", "notifier"], live: true) { app in
            let port = try #require(app.client.port)
            let crew = try await Self.crewOfTwo(app)
            let (opened, signal) = AsyncStream<Void>.makeStream()
            let (held, release) = AsyncStream<Void>.makeStream()
            async let heard = Self.listen(port: port, token: crew.ana, since: nil, until: 2, opened: signal, held: held)
            await Self.untilOpened(opened)
            let now = Timestamp.string(Date())
            let renamed = try await FieldSyncTests.push(app, crew.manager, FieldSyncTests.batch(device: FieldSyncTests.office, sentAt: now, [
                FieldSyncTests.mutation("project", FieldSyncTests.project, base: 1, at: now, #"{"name": "Main St. bridge, phase 2"}"#),
            ]))
            #expect(FieldSyncTests.statuses(renamed) == ["applied"])
            var silent: [PushRequested] = []
            try await eventually("a silent push is asked for") {
                silent = try await app.log.read(filter: "events.push.send.*.requested.v1").compactMap { $0.payload(as: PushRequested.self) }
                    .filter { $0.background == true }
                return !silent.isEmpty
            }
            release.finish()
            _ = try await heard
            #expect(silent.count == 1 && silent.first?.audience.personIds == [crew.benId], "only Ben, off the socket: \(silent)")
            #expect(silent.first?.priority == "normal" && silent.first?.collapseId == "field-sync")
        }
    }

    @Test func urgentUpdatesArePushedToTheWorkersWithoutASocket() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            let crew = try await Self.crewOfTwo(app)

            // Ana has her socket open (until the push is checked); Ben does not. The manager moves the site.
            let (opened, signal) = AsyncStream<Void>.makeStream()
            let (held, release) = AsyncStream<Void>.makeStream()
            async let heard = Self.listen(port: port, token: crew.ana, since: nil, until: 2, opened: signal, held: held)
            await Self.untilOpened(opened)
            let now = Timestamp.string(Date())
            let moved = try await FieldSyncTests.push(app, crew.manager, FieldSyncTests.batch(device: FieldSyncTests.office, sentAt: now, [
                FieldSyncTests.mutation("project", FieldSyncTests.project, base: 1, at: now, #"{"latitude": 44.0900, "address": "200 Main St"}"#),
            ]))
            #expect(FieldSyncTests.statuses(moved) == ["applied"])

            let pushes = try await app.log.read(filter: "events.push.send.*.requested.v1").compactMap { $0.payload(as: PushRequested.self) }
            #expect(pushes.count == 1 && pushes.first?.app == "field", "\(pushes)")
            #expect(pushes.first?.audience.personIds == [crew.benId], "only Ben, who has no socket, gets the push")
            release.finish()
            #expect(Self.ids(try await heard) == [FieldSyncTests.project, FieldSyncTests.project], "Ana hears it live")
            #expect(pushes.first?.message.title == "Site changed" && pushes.first?.message.id == FieldSyncTests.project)

            // A change that does not move the site pushes nothing.
            _ = try await FieldSyncTests.push(app, crew.manager, FieldSyncTests.batch(device: FieldSyncTests.office, sentAt: now, [
                FieldSyncTests.mutation("project", FieldSyncTests.project, base: 2, at: now, #"{"name": "Main St. bridge, phase 2"}"#),
            ]))
            #expect(try await app.log.read(filter: "events.push.send.*.requested.v1").count == 1)

            // The manager writes the crew a message: Ana hears it on her socket, Ben gets it as a push.
            // Ana's socket stays open until the push is checked: a socket that closes as soon as it has
            // the message may be gone by the time the sync asks who is connected (once, under load).
            let message = UUID().uuidString.lowercased()
            let (connected, connection) = AsyncStream<Void>.makeStream()
            let (holding, letGo) = AsyncStream<Void>.makeStream()
            async let told = Self.listen(port: port, token: crew.ana, since: nil, until: 2, opened: connection, held: holding)
            await Self.untilOpened(connected)
            let sent = try await FieldSyncTests.push(app, crew.manager, FieldSyncTests.batch(device: FieldSyncTests.office, sentAt: now, [
                FieldSyncTests.mutation("message", message, base: 0, at: now,
                                        #"{"projectId": "\#(FieldSyncTests.project)", "body": "Concrete pour moved to 7:00. Bring the vibrator."}"#),
            ]))
            letGo.finish()
            #expect(FieldSyncTests.statuses(sent) == ["applied"])
            #expect(Self.ids(try await told) == [FieldSyncTests.project, message], "the project at once, then the message")
            let messagePushes = try await app.log.read(filter: "events.push.send.*.requested.v1").compactMap { $0.payload(as: PushRequested.self) }
                .filter { $0.message.screen == "message" }
            #expect(messagePushes.map(\.audience.personIds) == [[crew.benId]], "\(messagePushes)")
            #expect(messagePushes.first?.message.title == "Message: Main St. bridge, phase 2")
            #expect(messagePushes.first?.message.body == "Concrete pour moved to 7:00. Bring the vibrator.")

            // Messages are the managers' to write.
            let refused = try await FieldSyncTests.push(app, crew.ana, FieldSyncTests.batch(device: FieldSyncTests.phone, sentAt: now, [
                FieldSyncTests.mutation("message", UUID().uuidString.lowercased(), base: 0, at: now,
                                        #"{"projectId": "\#(FieldSyncTests.project)", "body": "Who took my level?"}"#),
            ]))
            #expect(FieldSyncTests.statuses(refused) == ["refused"])
        }
    }
}
