import Foundation
import Logging
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import Testing

@Suite("Projection engine: DLQ, restart, rebuild")
struct ProjectionEngineTests {
    func runner(_ env: TestLog) -> ProjectionRunner<KeysProjection> {
        ProjectionRunner(KeysProjection.self, log: env.log, store: env.environment.snapshots, instance: "test",
                         logger: env.environment.logger)
    }

    @Test func malformedRawEventGoesToDLQAndTheProjectionCarriesOn() async throws {
        try await withTestLog { env in
            let keys = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await keys.runUntilCancelled() }
                let a = issuedKey(scopes: ["read:mobile"]).event
                try await env.log.append(a)
                // A script publishes garbage straight onto the log's subjects.
                let raw = try await env.log.jetStream.publish(OutgoingMessage(
                    subject: "events.platform.apikey.key_0000000000000bad.issued.v1", payload: Data(#"{"hello":"world"}"#.utf8)))
                _ = try await env.log.jetStream.publish(OutgoingMessage(
                    subject: "events.platform.apikey.key_0000000000000bad.revoked.v2", payload: Data("\u{0}\u{1}binary".utf8)))
                let b = issuedKey(scopes: ["read:mobile"]).event
                let last = try await env.log.append(b)
                try await eventually("projection past the poison") { await keys.checkpoint == last.sequence }
                let state = await keys.state
                #expect(state.keys[a.keyId] != nil && state.keys[b.keyId] != nil && state.keys.count == 2)
                #expect(await keys.deadLettered == 2)
                let dlq = try await env.log.jetStream.getMessage(stream: "DLQ", sequence: 1)
                #expect(dlq.headers[DeadLetterHeader.originSequence] == String(raw.seq))
                #expect(dlq.headers[DeadLetterHeader.reason]?.contains("invalid event") == true)
                #expect(dlq.payload == Data(#"{"hello":"world"}"#.utf8))
                group.cancelAll()
            }
        }
    }

    @Test func restartResumesFromTheSnapshot() async throws {
        try await withTestLog { env in
            let events = (0..<300).map { _ in issuedKey(scopes: ["read:mobile"]).event }
            _ = try await env.log.appendAll(events)
            let first = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await first.runUntilCancelled() }
                try await eventually("first run caught up") { await first.checkpoint == 300 }
                group.cancelAll()
            }
            let saved = try #require(try env.environment.snapshots.load(KeysProjection.State.self, name: "keys", version: 1))
            #expect(saved.checkpoint == 300 && saved.state.keys.count == 300)
            // More events while it was down; the next run starts from the snapshot and catches up.
            _ = try await env.log.appendAll((0..<50).map { _ in issuedKey(scopes: ["read:mobile"]).event })
            let second = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await second.runUntilCancelled() }
                try await eventually("second run caught up") { let c = await second.checkpoint; let up = await second.caughtUp; return c == 350 && up }
                #expect(await second.state.keys.count == 350)
                group.cancelAll()
            }
        }
    }

    @Test func rebuildFromSequenceOneEqualsTheLiveState() async throws {
        try await withTestLog { env in
            let events = (0..<200).map { _ in issuedKey(scopes: ["read:mobile"]).event }
            _ = try await env.log.appendAll(events)
            for event in events.prefix(20) {
                try await env.log.append(APIKeyRevoked(keyId: event.keyId, reason: "rotation", revokedBy: "test"))
            }
            let live = runner(env)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await live.runUntilCancelled() }
                try await eventually("live caught up") { await live.checkpoint == 220 }
                let progress = ProgressLog()
                let rebuilt = try await ProjectionRunner<KeysProjection>.rebuild(
                    log: env.log, store: env.environment.snapshots, logger: env.environment.logger,
                    progressEvery: .zero) { progress.add($0) }
                #expect(rebuilt.checkpoint == 220)
                #expect(rebuilt.state == (await live.state))
                #expect(progress.last?.remaining == 0 && progress.last?.applied == 220)
                // The scratch consumer is gone; only the live one remains.
                await live.requestReload()
                try await eventually("reloaded") { let c = await live.checkpoint; let up = await live.caughtUp; return c == 220 && up }
                group.cancelAll()
            }
        }
    }
}

final class ProgressLog: Sendable {
    private let reports = Mutex<[RebuildProgress]>([])
    func add(_ report: RebuildProgress) { reports.withLock { $0.append(report) } }
    var last: RebuildProgress? { reports.withLock { $0.last } }
}

import Synchronization
import MusterRuntime
