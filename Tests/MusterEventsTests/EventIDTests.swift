import Foundation
import MusterEvents
import Testing

@Suite("Event ids: evt_, 48-bit milliseconds, 64 random bits")
struct EventIDTests {
    @Test func idsSpellTheirMillisecondAndNeverRepeat() {
        let now = Date(timeIntervalSince1970: 1_764_000_000.5) // exact in binary: .5 s is 500 ms
        expectUniqueAndSpelled((0..<10_000).map { _ in EventID.make(now: now) }, millis: 1_764_000_000_500)
        #expect(EventID.make(now: now) < EventID.make(now: now.addingTimeInterval(0.001)), "a later millisecond sorts later")
    }
}

@Suite("Event id sources: no system call an id, still unique and well spread")
struct EventIDSourceTests {
    @Test func aSourceNeverRepeatsAndSpellsItsMillisecond() {
        let now = Date(timeIntervalSince1970: 1_764_000_000.5)
        let source = EventIDSource()
        expectUniqueAndSpelled((0..<100_000).map { _ in source.make(now: now) }, millis: 1_764_000_000_500)
    }

    @Test func twoSourcesDoNotShareIds() {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let first = EventIDSource(), second = EventIDSource()
        let ids = Set((0..<50_000).map { _ in first.make(now: now) })
        #expect((0..<50_000).allSatisfy { _ in !ids.contains(second.make(now: now)) })
    }

    @Test func consecutiveIdsDifferInAboutHalfTheirBits() {
        // The mix spreads a counter over all 64 bits: neighbours look unrelated, not one apart.
        let source = EventIDSource()
        let now = Date()
        let bits = (0..<1000).map { _ in UInt64(source.make(now: now).suffix(16), radix: 16) ?? 0 }
        let flips = zip(bits, bits.dropFirst()).map { ($0 ^ $1).nonzeroBitCount }
        let mean = Double(flips.reduce(0, +)) / Double(flips.count)
        #expect((28...36).contains(mean), "mean bits flipped \(mean)")
    }
}

/// No id repeats, and each is `evt_`, its millisecond in 12 hex digits, then 16 more, lowercase.
func expectUniqueAndSpelled(_ ids: [String], millis: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(Set(ids).count == ids.count, sourceLocation: sourceLocation)
    for id in ids.prefix(100) {
        #expect(id.count == 32 && id.hasPrefix("evt_"), "\(id)", sourceLocation: sourceLocation)
        #expect(id.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)", sourceLocation: sourceLocation)
        #expect(UInt64(id.dropFirst(4).prefix(12), radix: 16) == millis, "\(id)", sourceLocation: sourceLocation)
    }
}
