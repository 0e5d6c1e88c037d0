import Foundation
import MusterEvents
import MusterJSON
@testable import MusterPoP
import Testing

@Suite("PoP's wire: the sync answer written by hand is the bytes its conformance writes")
struct PoPWireTests {
    @Test func changesAnswerWrittenByHandEqualsItsConformance() throws {
        let records = (0..<50).map { i in
            ProgressRecord(mutationId: i % 3 == 0 ? "6F1C2B1E-2D4A-4B5E-9A3C-0D1E2F3A4B\(String(format: "%02d", i))" : "id-\(i) \"quoted\" é\u{1F}",
                           card: .init(deck: "us-civics", questionId: i + 1, timesViewed: i, lastViewed: nil, isMarkedKnown: i % 2 == 0,
                                       changedAt: "2026-11-25T08:00:00Z"))
        }
        let outcomes = records.indices.map { $0 % 4 == 0 ? CivicsSync.Outcome.refused("changes.\($0).card: names no question / of \"a\" deck") : .applied }
        let answer = ChangesAnswer(records, outcomes: outcomes, cursor: 9_007_199_254_740_993)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try JSONBytesEncoder().encode(answer) == Array(try foundation.encode(answer)))
        #expect(try JSONBytesEncoder().encode(ChangesAnswer([], outcomes: [], cursor: 0)) == Array(#"{"cursor":0,"results":[]}"#.utf8))
    }
}
