import Foundation
@testable import MusterLog
import Testing

@Suite("Snapshot files: MusterJSON writes and reads them; Foundation's older files still load")
struct SnapshotStoreTests {
    struct State: Codable, Sendable, Equatable {
        var balances: [String: Int]
        var days: [Int: Int]
        var ratio: Double
        var note: String?
    }

    static let snapshot = Snapshot(projection: "ledger", version: 3, checkpoint: 9_007_199_254_740_993, savedAt: "2026-11-25T10:00:00Z",
                                   state: State(balances: ["b": -2, "a\u{1F}é/\"": 1], days: [20_417: 4, 3: 1], ratio: 0.1 + 0.2, note: nil))

    @Test func roundTripsThroughMusterJSON() throws {
        let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID())"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try store.save(Self.snapshot)
        let loaded = try #require(try store.load(State.self, name: "ledger", version: 3))
        #expect(loaded.state == Self.snapshot.state)
        #expect(loaded.checkpoint == Self.snapshot.checkpoint)
        #expect(loaded.projection == "ledger" && loaded.version == 3 && loaded.savedAt == Self.snapshot.savedAt)
    }

    /// The checkpoint opens the file (a poller reads it from the head); the state's keys are not
    /// put in order (a third of writing a big state), and it reads back whole all the same.
    @Test func theCheckpointComesFirstAndTheStateAsItComes() throws {
        let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID())"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try store.save(Self.snapshot)
        let text = String(decoding: try Data(contentsOf: store.url(name: "ledger", version: 3)), as: UTF8.self)
        #expect(text.hasPrefix(#"{"checkpoint":9007199254740993,"projection":"ledger","savedAt":"2026-11-25T10:00:00Z","state":{"#))
        #expect(text.hasSuffix(#","version":3}"#))
        let big = Snapshot(projection: "ledger", version: 3, checkpoint: 1, savedAt: "2026-11-25T10:00:00Z",
                           state: State(balances: Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("k\($0)", $0) }), days: [:], ratio: 1, note: "n"))
        try store.save(big)
        #expect(try store.load(State.self, name: "ledger", version: 3)?.state == big.state)
    }

    @Test func aFileFoundationWroteStillLoads() throws {
        let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID())"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys // as SnapshotStore wrote them before
        try encoder.encode(Self.snapshot).write(to: store.url(name: "ledger", version: 3))
        let loaded = try #require(try store.load(State.self, name: "ledger", version: 3))
        #expect(loaded.state == Self.snapshot.state)
    }

    @Test func aDamagedFileIsAnErrorThatSaysWhatToDo() throws {
        let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID())"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try Data(#"{"projection":"ledger","version":3,"checkpoint":1,"#.utf8).write(to: store.url(name: "ledger", version: 3))
        #expect { try store.load(State.self, name: "ledger", version: 3) } throws: { "\($0)".contains("muster replay ledger") }
    }
}
