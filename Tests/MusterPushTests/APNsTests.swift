import AsyncHTTPClient
import Foundation
import MusterStandIns
import MusterAppTesting
import MusterNATS
@testable import MusterPush
import MusterTesting
import Testing

@Suite("APNs: Apple's answers, the provider token, the client over HTTP/2")
struct APNsTests {
    static let token = String(repeating: "ab", count: 32)

    @Test func everyAnswerMeansWhatApplesReasonSays() {
        func outcome(_ status: Int, _ body: String) -> APNsOutcome {
            APNsResponse.outcome(status: status, apnsID: "A-1", body: Array(body.utf8))
        }
        #expect(outcome(200, "") == .delivered(apnsID: "A-1"))
        #expect(outcome(410, #"{"reason":"Unregistered","timestamp":1763980000000}"#)
            == .refused(reason: "Unregistered", status: 410, invalidatesToken: true, since: 1_763_980_000_000))
        #expect(outcome(410, #"{"reason":"Unregistered","timestamp":-5}"#)
            == .refused(reason: "Unregistered", status: 410, invalidatesToken: true, since: nil))
        #expect(outcome(400, #"{"reason":"BadDeviceToken"}"#) == .refused(reason: "BadDeviceToken", status: 400, invalidatesToken: true, since: nil))
        for reason in ["DeviceTokenNotForTopic", "BadTopic", "TopicDisallowed"] {
            #expect(outcome(400, #"{"reason":"\#(reason)"}"#) == .refused(reason: reason, status: 400, invalidatesToken: false, since: nil))
        }
        #expect(outcome(413, #"{"reason":"PayloadTooLarge"}"#) == .refused(reason: "PayloadTooLarge", status: 413, invalidatesToken: false, since: nil))
        #expect(outcome(403, #"{"reason":"Forbidden"}"#) == .refused(reason: "Forbidden", status: 403, invalidatesToken: false, since: nil))
        #expect(outcome(403, #"{"reason":"InvalidProviderToken"}"#)
            == .refused(reason: "InvalidProviderToken", status: 403, invalidatesToken: false, since: nil))
        #expect(outcome(403, #"{"reason":"ExpiredProviderToken"}"#) == .renewToken)
        #expect(outcome(429, #"{"reason":"TooManyRequests"}"#) == .retry(reason: "TooManyRequests", status: 429))
        #expect(outcome(429, #"{"reason":"TooManyProviderTokenUpdates"}"#) == .retry(reason: "TooManyProviderTokenUpdates", status: 429))
        #expect(outcome(503, #"{"reason":"ServiceUnavailable"}"#) == .retry(reason: "ServiceUnavailable", status: 503))
        #expect(outcome(500, "<html>oops</html>") == .retry(reason: "HTTP500", status: 500))
        // A hostile or broken body is reported by its status, never trusted as a reason.
        #expect(outcome(400, #"{"reason":"<script>"}"#) == .refused(reason: "HTTP400", status: 400, invalidatesToken: false, since: nil))
        #expect(outcome(400, String(repeating: "x", count: 10_000)) == .refused(reason: "HTTP400", status: 400, invalidatesToken: false, since: nil))
    }

    /// The `apns-id` a device's copy carries: a UUID (version 4 and variant bits set) from a hash
    /// of push and device, the same in every release, so Apple's logs and ours keep agreeing.
    @Test func theApnsIDIsAStableUUIDOfPushAndDevice() {
        #expect(PushDispatcher.apnsID("psh_1", "dev_1") == "A0C7AD73-8CD9-4316-A1D8-1261C67CC17B")
        #expect(UUID(uuidString: PushDispatcher.apnsID("psh_2", "dev_9")) != nil)
    }

    @Test func theWindowStartsFastGrowsSlowlyOnceThrottledAndHalves() {
        var window = AdaptiveWindow(initial: 4, maximum: 64)
        for _ in 0..<4 { window.succeeded() }
        #expect(window.limit == 8, "slow start doubles each round")
        window.throttled()
        #expect(window.limit == 4)
        for _ in 0..<4 { window.succeeded() }
        #expect(window.limit == 5, "then one more for each window's worth")
        for _ in 0..<10_000 { window.succeeded() }
        #expect(window.limit == 64, "never past the maximum")
        for _ in 0..<10 { window.throttled() }
        #expect(window.limit == 1, "never below one")
    }

    @Test func providerTokensAreES256AndOnePerTeamForEveryProcess() async throws {
        try await StandIn.with { standIn in
            try await withNATS { nats, _ in
                let jetStream = JetStream(nats)
                let signer = try standIn.signer()
                let token = try signer.token(issuedAt: Date())
                #expect(ProviderToken.verify(token, publicKey: signer.publicKey) == .valid)
                #expect(ProviderToken.verify(try signer.token(issuedAt: Date().addingTimeInterval(-3700)), publicKey: signer.publicKey) == .expired)
                #expect(ProviderToken.verify(token + "x", publicKey: signer.publicKey) == .invalid)

                // Two notifier processes: the second adopts the first's token instead of renewing.
                let first = APNsTokenLease(signer: signer, jetStream: jetStream, replicas: 1)
                let second = APNsTokenLease(signer: signer, jetStream: jetStream, replicas: 1)
                let a = try await first.token()
                let b = try await second.token()
                #expect(a == b)
                #expect(await first.signed + second.signed == 1)
                // 41 minutes on, one of them renews and the other adopts the renewal.
                let later = Date().addingTimeInterval(41 * 60)
                let c = try await second.token(now: later)
                let d = try await first.token(now: later)
                #expect(c != a && c == d)
                #expect(await first.signed + second.signed == 2)
                // Apple says it expired, but it is minutes old: no renewal Apple would refuse.
                #expect(try await first.renew(rejected: c, now: later.addingTimeInterval(60)) == c)
            }
        }
    }

    @Test func theClientFollowsApplesReasons() async throws {
        try await StandIn.with { standIn in
            try await withNATS { nats, _ in
                let lease = APNsTokenLease(signer: try standIn.signer(), jetStream: JetStream(nats), replicas: 1)
                try await Self.withHTTPClient(caFile: standIn.certificate) { http in
                    var client = APNsClient(http: http, lease: lease, sandboxURL: standIn.url, productionURL: standIn.url)
                    client.firstDelay = .milliseconds(10)
                    let note = try APNsNotification(message: PushMessage(title: "Hi", body: "There", screen: "enrollment", id: "e1",
                                                                         imageUrl: "https://example.com/a.png"),
                                                    priority: "high", expiresAt: nil, collapseID: "c1")
                    func send(_ token: String = Self.token) async -> APNsClient.Result {
                        await client.deliver(note, token: token, topic: "com.kordant.shieldai", environment: "sandbox", apnsID: UUID().uuidString)
                }

                let delivered = await send()
                #expect(delivered.delivery == .delivered(apnsID: delivered.deliveryID), "\(delivered)")
                let seen = try #require(await standIn.recorder.deliveries.first)
                #expect(seen.topic == "com.kordant.shieldai" && seen.collapseId == "c1" && seen.priority == "10" && seen.pushType == "alert")
                #expect(seen.payload.contains(#""mutable-content":1"#) && seen.payload.contains(#""screen":"enrollment""#))

                await standIn.recorder.failNext(2, status: 503, reason: "ServiceUnavailable")
                let retried = await send()
                #expect(retried.attempts == 3)
                if case .delivered = retried.delivery {} else { Issue.record("503 twice, then delivered: \(retried)") }

                await standIn.recorder.failNext(1, status: 403, reason: "ExpiredProviderToken")
                let renewed = await send()
                #expect(renewed.attempts == 2)
                if case .delivered = renewed.delivery {} else { Issue.record("renewed and delivered: \(renewed)") }

                await standIn.recorder.failNext(1, status: 429, reason: "TooManyRequests")
                #expect(await send().throttled)

                let bad = await send("zz")
                #expect(bad.attempts == 1, "BadDeviceToken is never retried")
                #expect(bad.delivery == .failed(reason: "BadDeviceToken", status: 400, invalidatesToken: true, since: nil))

                await standIn.recorder.unregister(Self.token, at: 1_763_980_000_000)
                let gone = await send()
                #expect(gone.attempts == 1)
                #expect(gone.delivery == .failed(reason: "Unregistered", status: 410, invalidatesToken: true, since: 1_763_980_000_000))
                }
            }
        }
    }
    /// The stand-in's list keeps its last deliveries, oldest first, and counts all of them (it is
    /// trimmed in bulk: one at a time moved the whole list on every push once it was full).
    @Test func theStandInShowsItsLastDeliveriesAndCountsEvery() async throws {
        try await StandIn.with(keep: 3) { standIn in
            try await withNATS { nats, _ in
                let lease = APNsTokenLease(signer: try standIn.signer(), jetStream: JetStream(nats), replicas: 1)
                try await Self.withHTTPClient(caFile: standIn.certificate) { http in
                    let client = APNsClient(http: http, lease: lease, sandboxURL: standIn.url, productionURL: standIn.url)
                    let note = try APNsNotification(message: PushMessage(title: "Hi", body: "There"), priority: "high", expiresAt: nil,
                                                    collapseID: nil)
                    var ids: [String] = []
                    for _ in 0..<8 {
                        ids.append(UUID().uuidString)
                        _ = await client.deliver(note, token: Self.token, topic: "com.kordant.shieldai", environment: "sandbox",
                                                 apnsID: ids[ids.count - 1])
                    }
                    #expect(await standIn.recorder.deliveries.map(\.apnsId) == Array(ids.suffix(3)))
                    #expect(await standIn.recorder.delivered == 8)
                }
            }
        }
    }

    /// APNs sets how many streams a connection may have open and lowers it when it is busy; the
    /// client keeps to it on one connection and every push still arrives.
    @Test func concurrencyKeepsToTheStreamLimitAPNsSetsAndLowers() async throws {
        try await StandIn.with { standIn in
            let key = URL(fileURLWithPath: standIn.certificate).deletingLastPathComponent().appendingPathComponent("key.pem").path
            let limited = try await StreamLimitStandIn(certificate: standIn.certificate, key: key, streams: 8)
            try await withNATS { nats, _ in
                let lease = APNsTokenLease(signer: try standIn.signer(), jetStream: JetStream(nats), replicas: 1)
                try await Self.withHTTPClient(caFile: standIn.certificate) { http in
                    let client = APNsClient(http: http, lease: lease, sandboxURL: limited.url, productionURL: limited.url)
                    let note = try APNsNotification(message: PushMessage(title: "Hi", body: "There"), priority: "high", expiresAt: nil, collapseID: nil)
                    func burst(_ count: Int) async -> [APNsClient.Result] {
                        await withTaskGroup(of: APNsClient.Result.self) { group in
                            for _ in 0..<count {
                                group.addTask {
                                    await client.deliver(note, token: Self.token, topic: "org.onlinepicketline.app", environment: "production",
                                                         apnsID: UUID().uuidString)
                                }
                            }
                            return await group.reduce(into: []) { $0.append($1) }
                        }
                }
                _ = await burst(1) // the connection and the stand-in's settings
                limited.resetMost()
                // Held, so that the client has all 8 open at once however slowly a loaded machine
                // starts the 60 (unheld, CI once saw them trickle in two at a time).
                limited.hold()
                async let wideBurst = burst(60)
                try await eventually("the client opens as many streams as APNs allows") { limited.counts.open >= 8 }
                try await Task.sleep(for: .milliseconds(100)) // time for a ninth, were the client to open one
                limited.release()
                let wide = await wideBurst
                #expect(wide.allSatisfy { $0.deliveryID != nil }, "\(wide.filter { $0.deliveryID == nil })")
                #expect(limited.counts.mostOpen == 8, "as many streams as the 8 APNs allows, never more: \(limited.counts.mostOpen)")

                // APNs lowers the limit on a busy connection: streams already open finish, no new one
                // opens until fewer than 2 are. (Lowered on an idle connection, async-http-client
                // 1.37's debug build trips its own assertion over the idle timer; release builds do not check.)
                // Its pushes are held until the limit is lowered, so that polling sees them open even
                // on a loaded machine (a timed pause let the whole burst pass between two looks once).
                // The answers wait a moment more: async-http-client's pool takes the new limit after
                // the frame arrives, and answers in the same read could free streams under the old one.
                limited.hold()
                async let narrow = burst(60)
                try await eventually("the second burst is under way") { limited.counts.open >= 4 }
                try await limited.lowerLimit(to: 2)
                try await Task.sleep(for: .milliseconds(150))
                limited.release()
                try await eventually("the streams opened before the new limit have finished") { limited.counts.open <= 2 }
                limited.resetMost()
                let late = await burst(30)
                let narrowed = await narrow
                #expect((narrowed + late).allSatisfy { $0.deliveryID != nil }, "\((narrowed + late).filter { $0.deliveryID == nil })")
                #expect(limited.counts.mostOpen <= 2, "the lowered limit is kept: \(limited.counts.mostOpen) open at once")
                #expect(limited.counts.answered == 151)
                #expect(limited.connectionCount == 1, "one connection per environment")
                }
            }
            try await limited.close()
        }
    }
}

extension APNsTests {
    /// An APNs HTTP client shut down however the body ends (a debug build of async-http-client
    /// traps on a client dropped without it, which would end every test in the process).
    static func withHTTPClient(caFile: String, _ body: (HTTPClient) async throws -> Void) async throws {
        let http = APNsClient.makeHTTPClient(caFile: caFile)
        do {
            try await body(http)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}

extension APNsClient.Result {
    var deliveryID: String? {
        if case .delivered(let id) = delivery { return id }
        return nil
    }
}
