import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import MusterAnalytics
import MusterCommandLine
import MusterEvents
import MusterLog
import MusterNATS
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import Synchronization

extension Bench {
    /// A 500-event batch as an app sends it: a mix of screen views, time to interactive, API calls
    /// (some failed, with an email to redact) and funnel steps; ids unique per batch, a session
    /// every `sessionEvents` events.
    static func analyticsBatch(_ batch: Int, sentAt: String, sessionEvents: Int = 25) -> String {
        var events: [String] = []
        events.reserveCapacity(500)
        for i in 0..<500 {
            let id = "b\(batch)-\(i)", session = "s\(batch)-\(i / sessionEvents)", at = sentAt
            switch i % 4 {
            case 0:
                events.append(#"{"id":"\#(id)","type":"screen_view","created_at":"\#(at)","session_id":"\#(session)","screen":"Services","previous_screen":"Login","duration_ms":\#(1000 + i)}"#)
            case 1:
                events.append(#"{"id":"\#(id)","type":"time_to_interactive","created_at":"\#(at)","session_id":"\#(session)","screen":"Services","duration_ms":\#(40 + i % 400),"source":"\#(i % 3 == 0 ? "cache" : "network")"}"#)
            case 2:
                let error = i % 40 == 2 ? #","error":{"type":"server","message":"503 for walker-\#(i)@offleash.app"}"# : ""
                events.append(#"{"id":"\#(id)","type":"api_call","created_at":"\#(at)","session_id":"\#(session)","method":"GET","endpoint":"/bookings/\#(i)","status":\#(error.isEmpty ? 200 : 503),"duration_ms":180,"retry_count":0\#(error)}"#)
            default:
                events.append(#"{"id":"\#(id)","type":"funnel_step","created_at":"\#(at)","session_id":"\#(session)","funnel":"booking","step":"services","segment":"new"}"#)
            }
        }
        let context = #"{"app_version":"2.3.0","build":"412","os_name":"iOS","os_version":"17.5","device_model":"iPhone15,2","anonymous_id":"inst-\#(batch)"}"#
        return #"{"sent_at":"\#(sentAt)","context":\#(context),"events":[\#(events.joined(separator: ","))]}"#
    }

    /// The average size of the log events a batch becomes (what the raw baseline publishes).
    struct AnalyticsSize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "analytics-size")
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                let now = Timestamp.string(millis: Int64(Date().timeIntervalSince1970 * 1000))
                let batch = try JSONDecoder().decode(WireBatch.self, from: Data(Bench.analyticsBatch(0, sentAt: now).utf8))
                let clock = EventClock(sentAt: now, receivedMillis: Timestamp.millis(now)!)!
                let context = AnalyticsContext(app: "offleash", appVersion: "2.3.0", build: "412", osName: "iOS", osVersion: "17.5",
                                               deviceModel: "iPhone15,2", anonymousId: "inst-0")
                var total = 0
                for item in batch.events {
                    let event = try item.result.get().logEvent(context: context, clock: clock, redactor: Redactor())
                    total += try log.prepare(event).payload.count
                }
                let funnel = try batch.events[3].result.get().logEvent(context: context, clock: clock, redactor: Redactor())
                print(#"{"event_bytes": \#(total / batch.events.count), "funnel_bytes": \#(try log.prepare(funnel).payload.count)}"#)
            }
        }
    }

    /// Posts `batches` different 500-event batches over `connections` keep-alive connections.
    struct AnalyticsPost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "analytics-post")
        @Option var url = "http://127.0.0.1:8080"
        @Option var key: String
        @Option var batches = 400
        @Option var connections = 4

        func run() async throws {
            let now = Timestamp.string(millis: Int64(Date().timeIntervalSince1970 * 1000))
            let bodies = (0..<batches).map { ByteBuffer(string: Bench.analyticsBatch($0, sentAt: now)) }
            let (seconds, stored) = try await Bench.drive(bodies.count, connections: connections) { client, index in
                var request = HTTPClientRequest(url: url + "/api/analytics/events")
                request.method = .POST
                request.headers.add(name: "X-API-Key", value: key)
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(bodies[index])
                let response = try await client.execute(request, timeout: .seconds(60))
                let body = try await response.body.collect(upTo: 1 << 20)
                guard response.status == .ok else {
                    throw CommandFailure("batch \(index): \(response.status.code) \(String(buffer: body).prefix(300))")
                }
                return try JSONDecoder().decode(CollectAnswer.self, from: body).accepted
            }
            print(#"{"events": \#(stored), "batches": \#(batches), "events_per_sec": \#(Int(Double(stored) / seconds))}"#)
        }
    }

    /// Appends `count` funnel steps (100k people over a week) for the funnel rebuild.
    struct FunnelLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "funnel-load")
        @Option var count = 1_000_000
        @OptionGroup var common: CommonOptions
        func run() async throws {
            let steps = ["login", "services", "location", "booking_start", "booking_complete"]
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try await Bench.withBenchLog(common) { log in
                var done = 0
                while done < count {
                    let payloads = (done..<min(count, done + 50_000)).map { i -> FunnelReached in
                        let person = i / 5
                        let weekAgo: Int64 = now - 604_800_000
                        let stamp = Timestamp.string(millis: weekAgo + Int64(i) * 600)
                        return FunnelReached(eventId: "f\(i)", sessionId: "s\(person)",
                                             context: AnalyticsContext(app: "offleash", appVersion: person % 3 == 0 ? "2.2.0" : "2.3.0", build: "412",
                                                                       osName: "iOS", osVersion: "17.5", deviceModel: "iPhone15,2",
                                                                       anonymousId: "p\(person)"),
                                             times: AnalyticsTimes(createdAt: stamp, sentAt: stamp, receivedAt: stamp, occurredAt: stamp),
                                             funnel: "booking", step: steps[i % 5], segment: person % 4 == 0 ? "returning" : "new")
                    }
                    try await Bench.appendAll(payloads, to: log)
                    done += payloads.count
                }
                print(#"{"count": \#(count)}"#)
            }
        }
    }

    /// Appends `count` analytics events as the collector stores them (the batch mix above, a new
    /// session every 5 events: 200k sessions in 1M events).
    struct AnalyticsLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "analytics-load")
        @Option var count = 1_000_000
        @OptionGroup var common: CommonOptions
        func run() async throws {
            let now = Timestamp.string(millis: Int64(Date().timeIntervalSince1970 * 1000))
            let clock = EventClock(sentAt: now, receivedMillis: Timestamp.millis(now) ?? 0)
            let context = AnalyticsContext(app: "offleash", appVersion: "2.3.0", build: "412", osName: "iOS", osVersion: "17.5",
                                           deviceModel: "iPhone15,2", anonymousId: "inst-0")
            try await Bench.withBenchLog(common) { log in
                guard let clock else { throw CommandFailure("bad clock") }
                var done = 0, batch = 0
                while done < count {
                    var prepared: [OutgoingMessage] = []
                    while prepared.count < 50_000, done + prepared.count < count {
                        let wire = try JSONDecoder().decode(WireBatch.self, from: Data(Bench.analyticsBatch(batch, sentAt: now, sessionEvents: 5).utf8))
                        batch += 1
                        for item in wire.events.prefix(count - done - prepared.count) {
                            prepared.append(try log.prepare(try item.result.get().logEvent(context: context, clock: clock, redactor: Redactor())))
                        }
                    }
                    for result in try await log.appendAll(prepared: prepared) {
                        if case .failure(let error) = result { throw CommandFailure("append failed: \(error)") }
                    }
                    done += prepared.count
                }
                print(#"{"count": \#(count)}"#)
            }
        }
    }

    /// Rebuilds the analytics fold from sequence 1, as `muster replay analytics` does.
    struct AnalyticsReplay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "analytics-replay")
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                try await Bench.timeRebuild(AnalyticsProjection.self, log: log) { $0.events }
            }
        }
    }

    /// Rebuilds the funnel fold from sequence 1, as `muster replay funnel` does.
    struct FunnelReplay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "funnel-replay")
        @OptionGroup var common: CommonOptions
        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                try await Bench.timeRebuild(FunnelProjection.self, log: log) { $0.events }
            }
        }
    }
}

/// A counter the posting tasks share.
final class Counter: Sendable {
    let value = Atomic(0)
}
