import ArgumentParser
import AsyncHTTPClient
import Foundation
import MusterCommandLine
import MusterEvents
import MusterJSON
import MusterLog
import MusterNATS
import MusterPoP
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import Synchronization

extension Bench {
    static func popID(_ kind: Int, _ n: Int) -> String { String(format: "%08x-0000-4000-8000-%012x", kind, n) }

    /// One install's sync batch as the app sends it: `cards` flashcard records over both decks (the
    /// device's running counts), then bookmark adds up to `size` changes; ids unique per batch.
    static func popBatch(install: Int, batch: Int, size: Int, sentAt: String, cards: Int = 200) -> String {
        var changes: [String] = []
        changes.reserveCapacity(size)
        for i in 0..<size {
            let mutation = popID(0x6d00_0000 + batch, i)
            if i < min(cards, size) {
                let deck = i % 2 == 0 ? "us-civics" : "sd-civics", question = i / 2 % 100 + 1
                changes.append(#"{"mutationId":"\#(mutation)","card":{"deck":"\#(deck)","questionId":\#(question),"timesViewed":\#(batch + 1),"lastViewed":"\#(sentAt)","isMarkedKnown":\#((i + batch) % 3 == 0),"changedAt":"\#(sentAt)"}}"#)
            } else {
                changes.append(#"{"mutationId":"\#(mutation)","bookmark":{"bookmarkId":"\#(popID(0x6b00_0000 + batch, i))","documentId":"constitution","sectionId":"article-\#(i % 7 + 1)","createdAt":"\#(sentAt)"}}"#)
            }
        }
        return #"{"org":"pop-sd","sentAt":"\#(sentAt)","changes":[\#(changes.joined(separator: ","))]}"#
    }

    /// Synced event `i` of `count` as `pop-load` appends them: `changes` flashcard records over both
    /// decks from one of 10k installs, two seconds apart, the last one at `now`.
    static func popSynced(_ i: Int, of count: Int, changes: Int, now: Date) -> ProgressSynced {
        let at = Timestamp.string(millis: Timestamp.millis(now) - Int64(count - i) * 2_000)
        let records = (0..<changes).map { c -> ProgressRecord in
            let question = (i * 7 + c * 13) % 100 + 1
            return ProgressRecord(mutationId: popID(3 + c, i), card: .init(deck: c % 2 == 0 ? "us-civics" : "sd-civics",
                questionId: question, timesViewed: i / 10_000 + 1, lastViewed: at, isMarkedKnown: (i + question) % 3 != 0, changedAt: at))
        }
        return ProgressSynced(installId: popID(1, i % 10_000), org: "pop-sd", changes: records)
    }

    /// The size of the event a 500-change batch becomes, and of a `changes`-change event (what the
    /// raw baselines publish and consume).
    struct PoPSize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pop-size")
        @Option var changes = 4
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                let now = Timestamp.string(Date())
                func stored(_ size: Int) throws -> Int {
                    let body = try JSONDecoder().decode(PoPBenchBatch.self, from: Data(Bench.popBatch(install: 0, batch: 0, size: size, sentAt: now).utf8))
                    return try log.prepare(ProgressSynced(installId: Bench.popID(1, 0), org: "pop-sd", changes: body.changes)).payload.count
                }
                print(#"{"batch_bytes": \#(try stored(500)), "event_bytes": \#(try stored(changes))}"#)
            }
        }
    }

    struct PoPBenchBatch: Decodable { var changes: [ProgressRecord] }

    /// Posts `batches` different 500-change batches (one install each) over `connections`
    /// keep-alive connections to `POST /api/pop/installs/{id}/changes`.
    struct PoPPost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pop-post")
        @Option var url = "http://127.0.0.1:8080"
        @Option var key: String
        @Option var batches = 200
        @Option var connections = 4
        @Option(help: "The first install's number: a warm-up run takes installs no measured run uses.") var firstInstall = 0

        func run() async throws {
            let now = Timestamp.string(Date())
            let installs = firstInstall..<(firstInstall + batches)
            let bodies = installs.map { ByteBuffer(string: Bench.popBatch(install: $0, batch: $0, size: 500, sentAt: now)) }
            let (seconds, changes) = try await Bench.drive(bodies.count, connections: connections) { client, index in
                let body = try await Bench.send(client, .POST, url + "/api/pop/installs/\(Bench.popID(1, installs.lowerBound + index))/changes", key: key, body: bodies[index])
                return Bench.count(#""status":"applied""#, in: body)
            }
            guard changes == batches * 500 else { throw CommandFailure("only \(changes) of \(batches * 500) changes applied") }
            print(#"{"batches": \#(batches), "batches_per_sec": \#(Int(Double(batches) / seconds)), "changes_per_sec": \#(Int(Double(changes) / seconds))}"#)
        }
    }

    /// One install pushes `changes` changes (20 batches of 500: its 200 cards, then bookmarks), then
    /// pulls everything since cursor 0, `pulls` times: how long a device takes to catch up on 10k changes.
    struct PoPPull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pop-pull")
        @Option var url = "http://127.0.0.1:8080"
        @Option var key: String
        @Option var changes = 10_000
        @Option var pulls = 50

        func run() async throws {
            let now = Timestamp.string(Date())
            let client = Bench.client(1)
            let install = Bench.popID(2, 0)
            do {
                for batch in 0..<(changes / 500) {
                    // Cards only in the first batch: every later change is a bookmark the pull must return.
                    let body = ByteBuffer(string: Bench.popBatch(install: 0, batch: batch, size: 500, sentAt: now, cards: batch == 0 ? 200 : 0))
                    _ = try await Bench.send(client, .POST, url + "/api/pop/installs/\(install)/changes", key: key, body: body)
                }
                var bytes = 0
                let start = ContinuousClock.now
                for _ in 0..<pulls {
                    bytes = try await Bench.send(client, .GET, url + "/api/pop/installs/\(install)/progress", key: key, body: nil).readableBytes
                }
                let seconds = (ContinuousClock.now - start).seconds
                try await client.shutdown()
                print(#"{"changes": \#(changes), "pull_ms": \#(String(format: "%.2f", seconds * 1000 / Double(pulls))), "answer_bytes": \#(bytes), "changes_per_sec": \#(Int(Double(changes * pulls) / seconds))}"#)
            } catch {
                try await client.shutdown()
                throw error
            }
        }
    }

    /// Appends `count` synced events of `changes` flashcard records each, from 10k installs.
    struct PoPLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pop-load")
        @Option var count = 1_000_000
        @Option var changes = 4
        @OptionGroup var common: CommonOptions
        func run() async throws {
            let now = Date()
            try await Bench.withBenchLog(common) { log in
                var done = 0
                while done < count {
                    let events = (done..<min(count, done + 50_000)).map { Bench.popSynced($0, of: count, changes: changes, now: now) }
                    try await Bench.appendAll(events, to: log)
                    done += events.count
                }
                print(#"{"count": \#(count)}"#)
            }
        }
    }

    /// Rebuilds the civics-progress fold from sequence 1, as `muster replay civics` does; with
    /// `--fold pop`, PoP's sync fold over the same events instead: a fold that keeps tables, with a
    /// row per card as civics would have, so its rate is what civics in tables would cost.
    struct PoPReplay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pop-replay")
        enum Fold: String, ExpressibleByArgument { case civics, pop }
        @Option var count = 1_000_000
        @Option(help: "civics (kept in memory) or pop (kept in tables).") var fold = Fold.civics
        @OptionGroup var common: CommonOptions
        func run() async throws {
            let events = count
            try await Bench.withBenchLog(common) { log in
                switch fold {
                case .civics: try await Bench.timeRebuild(CivicsProjection.self, log: log) { _ in events }
                case .pop: try await Bench.timeRebuild(PoPProjection.self, log: log) { _ in events }
                }
            }
        }
    }

    /// Where the civics rebuild's time goes, without the log: µs an event to decode and validate a
    /// stored synced event (as `pop-load` writes them), and to apply it to the civics fold.
    struct PoPFoldCost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pop-fold-cost")
        @Option var count = 200_000
        @Option var changes = 4
        @Flag(help: "Only decode, twenty times over, for a profile.") var profile = false
        @OptionGroup var common: CommonOptions
        func run() async throws {
            let now = Date()
            try await Bench.withBenchLog(common) { log in
                let messages = try (0..<count).map { try log.prepare(Bench.popSynced($0, of: count, changes: changes, now: now)) }
                if profile {
                    for round in 0..<20 {
                        for (i, m) in messages.enumerated() { _ = try log.catalog.decode(subject: m.subject, sequence: UInt64(round * count + i + 1), payload: m.payload) }
                    }
                    return
                }
                var start = ContinuousClock.now
                let events = try messages.enumerated().map { i, m in try log.catalog.decode(subject: m.subject, sequence: UInt64(i + 1), payload: m.payload) }
                let decode = (ContinuousClock.now - start).seconds
                var state = CivicsProjection.initialState
                start = ContinuousClock.now
                for event in events { try CivicsProjection.apply(event, to: &state) }
                let apply = (ContinuousClock.now - start).seconds
                func us(_ seconds: Double) -> String { String(format: "%.2f", seconds / Double(count) * 1e6) }
                // The fold's snapshot: written member by member (as the runner writes it) and through `Codable`.
                struct ThroughCodable: Encodable { var state: CivicsProjection.State }
                start = ContinuousClock.now
                let bytes = try JSONBytesEncoder().encode(state).count
                let byHand = (ContinuousClock.now - start).seconds
                start = ContinuousClock.now
                _ = try JSONBytesEncoder().encode(ThroughCodable(state: state))
                let codable = (ContinuousClock.now - start).seconds
                print(#"{"count": \#(count), "decode_us": \#(us(decode)), "apply_us": \#(us(apply)), "installs": \#(state.installs.count), "#
                      + #""snapshot_bytes": \#(bytes), "snapshot_by_hand_ms": \#(Int(byHand * 1000)), "snapshot_codable_ms": \#(Int(codable * 1000))}"#)
            }
        }
    }

    static func client(_ connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.httpVersion = .http1Only
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// One request; its body, or a failure naming the status and the answer.
    static func send(_ client: HTTPClient, _ method: HTTPMethod, _ url: String, key: String, body: ByteBuffer?) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "X-API-Key", value: key)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok else { throw CommandFailure("\(method) \(url): \(response.status.code) \(String(buffer: answer).prefix(300))") }
        return answer
    }
}
