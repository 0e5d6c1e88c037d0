/// Callers of `ProjectionRunner.waitUntilApplied`, by the sequence each waits for. The fold calls
/// `due(upTo:)` every time its checkpoint moves (every event), so that is cheap however many wait:
/// a min-heap of sequences (a busy notifier has hundreds of callers waiting, and looking at each
/// of them per event cost it 3.6 % of its CPU). A caller that left (timed out, cancelled) leaves its
/// heap entry behind until it reaches the top or the heap is rebuilt. Pure; not thread-safe.
struct AppliedWaiters<Waiter> {
    private var nextID = 0
    private var waiting: [Int: (sequence: UInt64, waiter: Waiter)] = [:]
    private var heap: [(sequence: UInt64, id: Int)] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// An id for a caller about to wait (`add` it once it has its waiter).
    mutating func reserveID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    mutating func add(_ waiter: Waiter, id: Int, sequence: UInt64) {
        waiting[id] = (sequence, waiter)
        push((sequence, id))
        // Entries of callers that left, beyond as many as still wait: start over from those.
        if heap.count > 2 * waiting.count + 64 {
            heap = []
            for (id, entry) in waiting { push((entry.sequence, id)) }
        }
    }

    /// The caller's waiter, if it still waits (it then no longer does).
    mutating func remove(id: Int) -> Waiter? {
        waiting.removeValue(forKey: id)?.waiter
    }

    /// Every waiter for a sequence at or below `checkpoint`, taken out.
    mutating func due(upTo checkpoint: UInt64) -> [Waiter] {
        var due: [Waiter] = []
        while let top = heap.first, top.sequence <= checkpoint {
            popTop()
            if let entry = waiting.removeValue(forKey: top.id) { due.append(entry.waiter) }
        }
        return due
    }

    private mutating func push(_ entry: (sequence: UInt64, id: Int)) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].sequence < heap[parent].sequence else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].sequence < heap[smallest].sequence { smallest = left }
            if right < heap.count, heap[right].sequence < heap[smallest].sequence { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
