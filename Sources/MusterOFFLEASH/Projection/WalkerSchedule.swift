/// One walker's walks that hold time (not cancelled), ordered by start: what "is this walker free
/// then?" asks, answered by a binary search instead of a look at every booking of every walker.
package struct WalkerSchedule: Codable, Sendable, Equatable {
    package struct Walk: Codable, Sendable, Equatable {
        package var start: Int64
        package var end: Int64
        package var bookingId: String
    }

    /// The longest walk a service can be (720 minutes): no walk starting earlier than this before a
    /// span can overlap it.
    static let longest: Int64 = 720 * 60_000

    package private(set) var walks: [Walk] = []

    mutating func insert(_ walk: Walk) {
        walks.insert(walk, at: firstIndex(startingAtOrAfter: walk.start))
    }

    mutating func remove(_ bookingId: String) {
        walks.removeAll { $0.bookingId == bookingId }
    }

    /// True when no walk (but `ignoring`) overlaps [start, end).
    func isFree(from start: Int64, to end: Int64, ignoring: String? = nil) -> Bool {
        var index = firstIndex(startingAtOrAfter: start - Self.longest)
        while index < walks.count, walks[index].start < end {
            let walk = walks[index]
            if walk.bookingId != ignoring, start < walk.end { return false }
            index += 1
        }
        return true
    }

    /// How many walks start in [from, to).
    func count(from: Int64, to: Int64) -> Int {
        firstIndex(startingAtOrAfter: to) - firstIndex(startingAtOrAfter: from)
    }

    private func firstIndex(startingAtOrAfter start: Int64) -> Int {
        var (low, high) = (0, walks.count)
        while low < high {
            let middle = (low + high) / 2
            if walks[middle].start < start { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
