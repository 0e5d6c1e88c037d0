@testable import MusterOFFLEASH
import Testing

@Suite("A walker's schedule: overlaps by binary search, as a look at every walk would find them")
struct WalkerScheduleTests {
    @Test func agreesWithTheObviousCheckOnRandomWalks() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var schedule = WalkerSchedule()
            var walks: [WalkerSchedule.Walk] = []
            for index in 0..<Int.random(in: 0...40, using: &generator) {
                let start = Int64.random(in: 0...(48 * 60), using: &generator) * 60_000
                let walk = WalkerSchedule.Walk(start: start, end: start + Int64([20, 30, 60, 720].randomElement(using: &generator) ?? 30) * 60_000,
                                               bookingId: "b\(index)")
                schedule.insert(walk)
                walks.append(walk)
            }
            if let gone = walks.randomElement(using: &generator), Bool.random(using: &generator) {
                schedule.remove(gone.bookingId)
                walks.removeAll { $0.bookingId == gone.bookingId }
            }
            #expect(schedule.walks.map(\.start) == schedule.walks.map(\.start).sorted())
            for _ in 0..<50 {
                let start = Int64.random(in: -60...(50 * 60), using: &generator) * 60_000
                let end = start + Int64.random(in: 1...120, using: &generator) * 60_000
                let ignoring = walks.randomElement(using: &generator)?.bookingId
                let obvious = !walks.contains { $0.bookingId != ignoring && $0.start < end && start < $0.end }
                #expect(schedule.isFree(from: start, to: end, ignoring: ignoring) == obvious)
                #expect(schedule.count(from: start, to: end) == walks.filter { $0.start >= start && $0.start < end }.count)
            }
        }
    }
}
