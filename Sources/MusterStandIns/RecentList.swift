/// The last `keep` things a stand-in recorded, oldest first: what its `/standin/…` list shows.
/// Trimmed in bulk once it holds twice as many, so recording stays O(1) amortized (dropping the
/// oldest one at a time moved the whole list on every request once it was full: past 100k
/// deliveries the APNs stand-in's CPU a push-bench round went 5 → 12 → 19 s, and the rounds took
/// twice as long). Pure.
struct RecentList<Element: Sendable>: Sendable {
    let keep: Int
    private var storage: [Element] = []

    init(keep: Int) { self.keep = max(1, keep) }

    var items: [Element] { storage.count > keep ? Array(storage.suffix(keep)) : storage }

    mutating func append(_ element: Element) {
        storage.append(element)
        if storage.count >= 2 * keep { storage.removeFirst(storage.count - keep) }
    }
}
