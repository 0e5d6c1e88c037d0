import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import MusterCommandLine
import MusterEvents
import MusterField
import MusterJSON
import MusterLog
import MusterNATS
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import Synchronization

/// The field app's benchmarks (`bench/field.sh`): batches of 500 mutations, a pull of 100k changes,
/// a 20 MB upload, and the WebSocket fan-out of one change to 1,000 sockets.
extension Bench {
    static let fieldDigest = String(repeating: "ab", count: 32)

    /// Batch `index` of `size` new photos in `project` (distinct records, so every mutation is stored).
    static func fieldBatch(_ index: Int, size: Int, project: String, sentAt: String, digest: String = fieldDigest) -> String {
        let mutations = (0..<size).map { i in
            let id = popID(60 + i % 7, index * size + i)
            return #"{"mutationId":"\#(popID(70 + i % 7, index * size + i))","entity":"photo","id":"\#(id)","baseVersion":0,"changedAt":"\#(sentAt)","#
                + #""fields":{"projectId":"\#(project)","takenAt":"\#(sentAt)","latitude":44.0805,"longitude":-103.231,"caption":"Deck pour, bay \#(i % 40)","digest":"\#(digest)"}}"#
        }
        return #"{"deviceId":"\#(popID(80, index))","sentAt":"\#(sentAt)","mutations":[\#(mutations.joined(separator: ","))]}"#
    }

    /// How many times `pattern` occurs in `answer`, counted in its bytes: how a push's client
    /// checks that every mutation was applied. Foundation's `components(separatedBy:)` on the
    /// answer as a `String` (graphemes walked one by one) cost the client about as much CPU as a
    /// push cost the server, on the two cores they share.
    static func count(_ pattern: String, in answer: ByteBuffer) -> Int {
        let pattern = Array(pattern.utf8)
        guard let first = pattern.first else { return 0 }
        return answer.withUnsafeReadableBytes { bytes in
            var (count, at) = (0, 0)
            while at + pattern.count <= bytes.count {
                if bytes[at] == first, pattern.indices.allSatisfy({ bytes[at + $0] == pattern[$0] }) {
                    count += 1
                    at += pattern.count
                } else {
                    at += 1
                }
            }
            return count
        }
    }

    static func sendBearer(_ client: HTTPClient, _ method: NIOHTTP1.HTTPMethod, _ url: String, token: String, body: ByteBuffer?,
                           headers extra: [(String, String)] = []) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let body {
            if extra.isEmpty { request.headers.add(name: "Content-Type", value: "application/json") }
            request.body = .bytes(body)
        }
        let response = try await client.execute(request, timeout: .seconds(120))
        let answer = try await response.body.collect(upTo: 64 << 20)
        guard (200..<300).contains(response.status.code) else { throw CommandFailure("\(method) \(url): \(response.status.code) \(String(buffer: answer).prefix(300))") }
        return answer
    }

    /// The stored size of a 500-mutation push and of a one-mutation push (what the raw baselines publish).
    struct FieldSize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "field-size")
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                let now = Timestamp.string(Date())
                func stored(_ size: Int) throws -> Int {
                    let body = try JSONDecoder().decode(FieldBenchBatch.self, from: Data(Bench.fieldBatch(0, size: size, project: Bench.popID(90, 0), sentAt: now).utf8))
                    let pushed = MutationsPushed(deviceId: Bench.popID(80, 0), personId: Bench.popID(81, 0), orgId: Bench.popID(82, 0),
                                                 role: FieldRoles.manager, mutations: body.mutations)
                    return try log.prepare(pushed).payload.count
                }
                print(#"{"batch_bytes": \#(try stored(500)), "event_bytes": \#(try stored(1))}"#)
            }
        }
    }

    struct FieldBenchBatch: Decodable { var mutations: [FieldMutation] }

    /// The field fold's snapshot state, a book of `records` photos (as `bench/field.sh` pushes them):
    /// written member by member, as the runner's snapshot writes it, against the same book through `Codable`.
    struct FieldSnapshotCost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "field-snapshot-cost")
        @Option var records = 100_000
        func run() async throws {
            let now = Timestamp.string(Date())
            let (project, org, person) = (Bench.popID(90, 0), Bench.popID(82, 0), Bench.popID(81, 0))
            var book = FieldBook()
            book.storedFiles[org] = [Bench.fieldDigest]
            let site = try JSONDecoder().decode(FieldBenchBatch.self, from: Data(#"{"mutations":[{"mutationId":"\#(Bench.popID(79, 0))","entity":"project","id":"\#(project)","baseVersion":0,"changedAt":"\#(now)","fields":{"name":"Bench bridge"}}]}"#.utf8))
            book.apply(MutationsPushed(deviceId: Bench.popID(80, 0), personId: person, orgId: org, role: FieldRoles.manager, mutations: site.mutations),
                       sequence: 2, at: 0)
            for index in 0..<(records / 500) {
                let body = try JSONDecoder().decode(FieldBenchBatch.self, from: Data(Bench.fieldBatch(index, size: 500, project: project, sentAt: now).utf8))
                book.apply(MutationsPushed(deviceId: Bench.popID(80, index), personId: person, orgId: org, role: FieldRoles.manager, mutations: body.mutations),
                           sequence: UInt64(3 + index), at: 0)
            }
            struct ThroughCodable: Encodable { var state: FieldBook }
            let clock = ContinuousClock()
            var (hand, codable) = (0, 0)
            let byHand = try clock.measure { hand = try JSONBytesEncoder().encode(book).count }
            let throughCodable = try clock.measure { codable = try JSONBytesEncoder().encode(ThroughCodable(state: book)).count }
            print(#"{"records": \#(book.records.count), "bytes": \#(hand), "codable_bytes": \#(codable), "by_hand_ms": \#(Int(byHand.seconds * 1000)), "codable_ms": \#(Int(throughCodable.seconds * 1000))}"#)
        }
    }

    /// Posts `batches` batches of 500 new photos over `connections` keep-alive connections.
    struct FieldPost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "field-post")
        @Option var url = "http://127.0.0.1:8080"
        @Option var token: String
        @Option var project: String
        @Option var batches = 200
        @Option var connections = 4
        @Option(help: "The first batch's number: a warm-up run takes batches no measured run uses.") var first = 0
        @Option(help: "The photo every record names: one the company uploaded (a record may name no other).") var digest = Bench.fieldDigest

        func run() async throws {
            let now = Timestamp.string(Date())
            let bodies = (first..<(first + batches)).map { ByteBuffer(string: Bench.fieldBatch($0, size: 500, project: project, sentAt: now, digest: digest)) }
            let (seconds, mutations) = try await Bench.drive(bodies.count, connections: connections) { client, index in
                let body = try await Bench.sendBearer(client, .POST, url + "/api/field/mutations", token: token, body: bodies[index])
                return Bench.count(#""status":"applied""#, in: body)
            }
            guard mutations == batches * 500 else { throw CommandFailure("only \(mutations) of \(batches * 500) mutations applied") }
            print(#"{"batches": \#(batches), "batches_per_sec": \#(Int(Double(batches) / seconds)), "mutations_per_sec": \#(Int(Double(mutations) / seconds))}"#)
        }
    }

    /// A device catching up from cursor 0: every page of 1,000 until `more` is false.
    struct FieldPull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "field-pull")
        @Option var url = "http://127.0.0.1:8080"
        @Option var token: String
        @Option var runs = 3

        struct Page: Decodable { var cursor: String; var more: Bool; var records: [Record] }
        struct Record: Decodable { var id: String }

        func run() async throws {
            let client = Bench.client(1)
            var best = Double.infinity, records = 0, pages = 0, bytes = 0
            do {
                for _ in 0..<runs {
                    (records, pages, bytes) = (0, 0, 0)
                    var cursor = "0"
                    let start = ContinuousClock.now
                    while true {
                        let body = try await Bench.sendBearer(client, .GET, url + "/api/field/changes?limit=1000&since=\(cursor)", token: token, body: nil)
                        let page = try JSONDecoder().decode(Page.self, from: Data(buffer: body))
                        (records, pages, bytes, cursor) = (records + page.records.count, pages + 1, bytes + body.readableBytes, page.cursor)
                        if !page.more { break }
                    }
                    best = min(best, (ContinuousClock.now - start).seconds)
                }
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            print(#"{"records": \#(records), "pages": \#(pages), "bytes": \#(bytes), "pull_ms": \#(Int(best * 1000)), "records_per_sec": \#(Int(Double(records) / best))}"#)
        }
    }

    /// Sends the same `megabytes` body `runs` times (one connection), to Muster's upload route or to
    /// nginx: the best time, and the rate.
    struct FieldUpload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "field-upload")
        @Option var url: String
        @Option var method = "POST"
        @Option var token = ""
        @Option var megabytes = 20
        @Option var runs = 5

        func run() async throws {
            var bytes = [UInt8](repeating: 0, count: megabytes << 20)
            var state: UInt64 = 42
            for i in bytes.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
            }
            bytes.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])
            let body = ByteBuffer(bytes: bytes)
            let client = Bench.client(1)
            var best = Double.infinity
            do {
                for _ in 0..<runs {
                    var copy = body
                    // New bytes each run, and in each invocation: Muster would find the same bytes already stored.
                    copy.setInteger(UInt64.random(in: 0...UInt64.max), at: 8)
                    let start = ContinuousClock.now
                    _ = try await Bench.sendBearer(client, method == "POST" ? .POST : .PUT, url, token: token, body: copy,
                                                   headers: [("Content-Type", "image/jpeg")])
                    best = min(best, (ContinuousClock.now - start).seconds)
                }
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            print(#"{"megabytes": \#(megabytes), "best_ms": \#(Int(best * 1000)), "mb_per_sec": \#(Int(Double(megabytes) / best))}"#)
        }
    }

    /// What the sockets of a fan-out share (a class: atomics and mutexes are not copied into tasks).
    final class FanoutTally: Sendable {
        let connected = Counter()
        let latencies = Mutex<[Double]>([])
        let sent = Mutex<[Int: ContinuousClock.Instant]>([:])
    }

    /// `sockets` WebSockets on `/api/field/live`; then, `rounds` times, one change pushed and the
    /// time until each socket has it: p50 and p99 over every delivery.
    struct FieldFanout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "field-fanout")
        @Option var url = "http://127.0.0.1:8080"
        @Option var token: String
        @Option var project: String
        @Option var sockets = 1_000
        @Option var rounds = 10

        func run() async throws {
            let tally = FanoutTally()
            let ws = url.replacingOccurrences(of: "http://", with: "ws://") + "/api/field/live"
            let client = Bench.client(1)
            // Start from the current cursor (a push answers it), so a socket's first message is an empty catch-up, then only the rounds.
            let start = Timestamp.millis(Date())
            // Each round a later write (by a millisecond), so it always wins and always reaches the sockets.
            func rename(_ round: Int) -> ByteBuffer {
                let (sent, changed) = (Timestamp.string(millis: start + 1_000), Timestamp.string(millis: start + Int64(round) + 2))
                return ByteBuffer(string: #"{"deviceId":"\#(Bench.popID(85, round + 1))","sentAt":"\#(sent)","mutations":[{"mutationId":"\#(Bench.popID(86, round + 1))","entity":"project","id":"\#(project)","baseVersion":0,"changedAt":"\#(changed)","fields":{"name":"Round \#(round)"}}]}"#)
            }
            let answer = try await Bench.sendBearer(client, .POST, url + "/api/field/mutations", token: token, body: rename(-1))
            guard let since = (try? JSONSerialization.jsonObject(with: Data(buffer: answer)) as? [String: Any])?["cursor"] as? String else {
                throw CommandFailure("the push answered no cursor: \(String(buffer: answer).prefix(200))")
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<sockets {
                    group.addTask {
                        var configuration = WebSocketClientConfiguration()
                        configuration.additionalHeaders = [.authorization: "Bearer \(token)"]
                        try await WebSocketClient.connect(url: ws + "?since=\(since)", configuration: configuration, logger: Logger(label: "bench")) { inbound, _, _ in
                            var first = true, heard = 0
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message else { continue }
                                if first { first = false; tally.connected.value.add(1, ordering: .relaxed); continue }
                                let arrived = ContinuousClock.now
                                let round = heard
                                heard += 1
                                if let at = tally.sent.withLock({ $0[round] }) { tally.latencies.withLock { $0.append((arrived - at).seconds * 1000) } }
                                _ = text
                                if heard == rounds { return }
                            }
                        }
                    }
                }
                while tally.connected.value.load(ordering: .relaxed) < sockets { try await Task.sleep(for: .milliseconds(50)) }
                for round in 0..<rounds {
                    tally.sent.withLock { $0[round] = .now }
                    _ = try await Bench.sendBearer(client, .POST, url + "/api/field/mutations", token: token, body: rename(round))
                    // The next round waits until this one reached every socket.
                    while tally.latencies.withLock({ $0.count }) < (round + 1) * sockets { try await Task.sleep(for: .milliseconds(5)) }
                }
                try await group.waitForAll()
            }
            try await client.shutdown()
            let sorted = tally.latencies.withLock { $0 }.sorted()
            func percentile(_ p: Double) -> String { String(format: "%.1f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) }
            print(#"{"sockets": \#(sockets), "deliveries": \#(sorted.count), "p50_ms": \#(percentile(0.5)), "p99_ms": \#(percentile(0.99)), "max_ms": \#(percentile(1.0))}"#)
        }
    }
}
