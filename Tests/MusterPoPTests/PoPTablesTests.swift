import GRDB
@testable import MusterPoP
import MusterTesting
import PropertyBased
import Testing

@Suite("The sync fold's SQL merges exactly as LearnerProgress does")
struct PoPTablesTests {
    /// Random changes from three devices (installs of one person), applied as upserts in any
    /// order with retries, read back as the person's view: the state `LearnerProgress` computes.
    @Test func upsertsAgreeWithLearnerProgress() async throws {
        await propertyCheck(count: 150, input: Gen.int(in: -1_000_000...1_000_000).array(of: 1...40), Gen.int(in: 0...1_000_000)) { seeds, shuffle in
            let changes = LearnerProgressTests.changes(seeds)
            let expected = LearnerProgressTests.merged(changes)
            var generator = SplitMix(seed: UInt64(shuffle))
            var replayed = changes + changes.filter { _ in Bool.random(using: &generator) }
            replayed.shuffle(using: &generator)
            do {
                let db = try DatabaseQueue()
                let view = try db.write { db -> PoPTables.View? in
                    try PoPTables.create(db)
                    for device in LearnerProgressTests.devices {
                        _ = try PoPTables.addInstall(device, in: db)
                        try PoPTables.link(device, to: "person", sequence: 1, in: db)
                    }
                    for (sequence, (device, change)) in replayed.enumerated() {
                        try PoPTables.apply(change, install: device, sequence: UInt64(sequence + 2), in: db)
                    }
                    return try PoPTables.view(of: LearnerProgressTests.devices[0], in: db)
                }
                #expect(view?.progress == expected)
            } catch {
                Issue.record("SQLite: \(error)")
            }
        }
    }
}
