import Foundation
import MusterEvents
import Testing

@Suite("Event ids: evt_, 48-bit milliseconds, 64 random bits")
struct EventIDTests {
    @Test func idsSpellTheirMillisecondAndNeverRepeat() {
        let now = Date(timeIntervalSince1970: 1_764_000_000.5) // exact in binary: .5 s is 500 ms
        let ids = (0..<10_000).map { _ in EventID.make(now: now) }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) {
            #expect(id.count == 32 && id.hasPrefix("evt_"), "\(id)")
            #expect(id.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
            #expect(UInt64(id.dropFirst(4).prefix(12), radix: 16) == 1_764_000_000_500, "\(id)")
        }
        #expect(EventID.make(now: now) < EventID.make(now: now.addingTimeInterval(0.001)), "a later millisecond sorts later")
    }
}
