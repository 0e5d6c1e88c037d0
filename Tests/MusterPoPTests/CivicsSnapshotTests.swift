import Foundation
import MusterEvents
import MusterJSON
@testable import MusterPoP
import Testing

/// The civics fold's snapshot is written member by member (`CivicsProjection+Snapshot`): the bytes
/// must be the ones its `Codable` conformance writes, since loading decodes them through it.
@Suite("The civics snapshot, written by hand, as its conformance writes it")
struct CivicsSnapshotTests {
    /// Writes the state through `Codable` (nested, so the hand-written members are not used).
    struct ThroughCodable: Encodable {
        var state: CivicsProjection.State
    }

    @Test func theBytesAreTheConformances() throws {
        var state = CivicsProjection.initialState
        for install in 0..<300 {
            // Days apart, some known and some not, some never viewed, some installs synced twice.
            let time = Timestamp.string(millis: 1_795_000_000_000 + Int64(install % 9) * 86_400_000)
            CivicsProjection.fold(CivicsProjection.Synced(CivicsStoredReadTests.synced(install, at: time, known: install % 3 == 0)), into: &state)
            if install % 4 == 0 {
                CivicsProjection.fold(CivicsProjection.Synced(CivicsStoredReadTests.synced(install, at: time, known: false)), into: &state)
            }
        }
        #expect(state.installs.count == 300 && state.installs.values.contains { $0.cards.count == 3 && !$0.known.isEmpty && !$0.days.isEmpty })
        let byHand = try JSONBytesEncoder().encodeObject { try $0.object("state") { try state.encodeMembers(&$0) } }
        let codable = try JSONBytesEncoder().encode(ThroughCodable(state: state))
        #expect(String(decoding: byHand, as: UTF8.self) == String(decoding: codable, as: UTF8.self))
        #expect(try JSONBytesDecoder().decode(CivicsProjection.State.self, from: JSONBytesEncoder().encode(state)) == state)
    }
}
