import Foundation
import MusterNATS
import MusterTesting
import Testing

@Suite("KeyValueMirror: a bucket copied in memory")
struct KeyValueMirrorTests {
    /// Runs the mirror, and `body` once it has caught up; then stops it.
    func following(_ mirror: KeyValueMirror, _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await mirror.run() }
            try await eventually("caught up", timeout: .seconds(10)) { mirror.isCurrent }
            try await body()
            group.cancelAll()
        }
    }

    /// A mirror of `kv`, which now holds `a` = "1", checked against the server every 200 ms.
    func mirror(of kv: KeyValue) async throws -> KeyValueMirror {
        try await kv.put("a", Data("1".utf8))
        return KeyValueMirror(kv.jetStream, bucket: kv.bucket, checkEvery: .milliseconds(200))
    }

    @Test func copiesTheBucketThenFollowsOthersWritesAndDeletes() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            let kv = try await KeyValue.open(js, bucket: "mirrored", erasable: true)
            try await kv.put("old", Data("1".utf8))
            try await kv.put("gone", Data("x".utf8))
            try await kv.delete("gone")
            let mirror = KeyValueMirror(js, bucket: "mirrored", erasable: true, checkEvery: .milliseconds(200))
            #expect(mirror.value("old") == nil, "before it has caught up it knows nothing: ask the server")
            try await following(mirror) {
                #expect(mirror.value("old") == Data("1".utf8))
                #expect(mirror.value("gone") == nil)
                #expect(mirror.value("never") == nil)

                try await kv.put("new", Data("2".utf8))
                try await eventually("another writer's value", timeout: .seconds(10)) { mirror.value("new") == Data("2".utf8) }
                try await kv.put("new", Data("3".utf8))
                try await eventually("its next value", timeout: .seconds(10)) { mirror.value("new") == Data("3".utf8) }
                try await kv.erase("new")
                try await eventually("another writer's purge", timeout: .seconds(10)) { mirror.value("new") == nil }

                // What this process deletes is gone at once, and its older delivery never brings it back.
                let revision = try await kv.put("mine", Data("4".utf8))
                mirror.stored("mine", Data("4".utf8), revision: revision)
                #expect(mirror.value("mine") == Data("4".utf8), "what this process stored is known before its delivery")
                mirror.removed("mine", revision: .max)
                #expect(mirror.value("mine") == nil)
                try await Task.sleep(for: .milliseconds(500))
                #expect(mirror.value("mine") == nil)
            }
        }
    }

    /// A consumer the server lost (deleted here; a restart or an inactive client does the same):
    /// the copy is dropped at the next quiet check, reads go to the server, and a new consumer
    /// delivers the bucket again, with what was written meanwhile.
    @Test func aLostConsumerDropsTheCopyUntilANewOneDeliversItAgain() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            let kv = try await KeyValue.open(js, bucket: "lost")
            let mirror = try await mirror(of: kv)
            try await following(mirror) {
                let first = try #require(mirror.consumer)
                #expect(try await js.deleteConsumer(stream: "KV_lost", name: first))
                try await kv.put("b", Data("2".utf8))
                try await eventually("a new consumer", timeout: .seconds(10)) { mirror.consumer != first }
                try await eventually("caught up again", timeout: .seconds(10)) { mirror.isCurrent }
                #expect(mirror.value("a") == Data("1".utf8))
                #expect(mirror.value("b") == Data("2".utf8))
            }
        }
    }

    /// The server killed and started again: the copy is dropped while it is away, then current again.
    @Test func aServerRestartIsFollowedByACurrentCopy() async throws {
        try await withNATS { nats, server in
            let kv = try await KeyValue.open(JetStream(nats), bucket: "restarted")
            let mirror = try await mirror(of: kv)
            try await following(mirror) {
                try await server.crash()
                try await eventually("dropped while the server is away", timeout: .seconds(20)) { !mirror.isCurrent }
                #expect(mirror.value("a") == nil)
                try await server.restart()
                try await eventually("the bucket takes writes again", timeout: .seconds(20)) {
                    (try? await kv.put("b", Data("2".utf8))) != nil
                }
                try await eventually("current again", timeout: .seconds(30)) { mirror.isCurrent && mirror.value("b") == Data("2".utf8) }
                #expect(mirror.value("a") == Data("1".utf8))
            }
        }
    }
}
