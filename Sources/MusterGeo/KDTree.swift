import Foundation

/// Nearest-point search on the sphere: points as unit vectors in a static 3-d tree, so the
/// straight-line (chord) nearest is the great-circle nearest, near the poles and across the
/// date line alike. Built once, read-only after.
package struct KDTree<Element: Sendable>: Sendable {
    /// Nodes in implicit layout: the median of each range is its node; left half, right half.
    private var xyz: [SIMD3<Double>] = []
    private var elements: [Element] = []
    private var axes: [UInt8] = []

    static func vector(_ lat: Double, _ lng: Double) -> SIMD3<Double> {
        let phi = lat * .pi / 180, lambda = lng * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    static var earthRadius: Double { 6_371_008.8 }

    package init(_ points: [(lat: Double, lng: Double, element: Element)]) {
        var items = points.map { (Self.vector($0.lat, $0.lng), $0.element) }
        axes = [UInt8](repeating: 0, count: items.count)
        build(&items, 0..<items.count)
        xyz = items.map(\.0)
        elements = items.map(\.1)
    }

    private mutating func build(_ items: inout [(SIMD3<Double>, Element)], _ range: Range<Int>) {
        guard range.count > 1 else { return }
        // Split on the axis with the widest spread.
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        for i in range { low = pointwiseMin(low, items[i].0); high = pointwiseMax(high, items[i].0) }
        let spread = high - low
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        let mid = range.lowerBound + range.count / 2
        Self.select(&items, range, mid, axis) // the median in place, smaller left, larger right
        axes[mid] = UInt8(axis)
        build(&items, range.lowerBound..<mid)
        build(&items, (mid + 1)..<range.upperBound)
    }

    /// Quickselect: puts the element that sorts at `k` there, with no larger one before it and
    /// no smaller one after it, in expected linear time (the build is then n log n, not n log² n).
    private static func select(_ items: inout [(SIMD3<Double>, Element)], _ range: Range<Int>, _ k: Int, _ axis: Int) {
        var low = range.lowerBound, high = range.upperBound - 1
        while low < high {
            let pivot = items[(low + high) / 2].0[axis]
            var i = low, j = high
            while i <= j {
                while items[i].0[axis] < pivot { i += 1 }
                while items[j].0[axis] > pivot { j -= 1 }
                if i <= j {
                    items.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return }
        }
    }

    /// The element nearest to (lat, lng) within `limit` metres, with its distance.
    package func nearest(toLat lat: Double, lng: Double, within limit: Double = .infinity) -> (element: Element, distance: Double)? {
        guard !xyz.isEmpty else { return nil }
        let target = Self.vector(lat, lng)
        let chordLimit = limit.isFinite ? 2 * sin(min(limit / Self.earthRadius, .pi) / 2) : 2.0001
        var best = -1
        var bestSquared = chordLimit * chordLimit
        search(target, 0..<xyz.count, &best, &bestSquared)
        guard best >= 0 else { return nil }
        let angle = 2 * asin(min(1, sqrt(bestSquared) / 2))
        return (elements[best], angle * Self.earthRadius)
    }

    private func search(_ target: SIMD3<Double>, _ range: Range<Int>, _ best: inout Int, _ bestSquared: inout Double) {
        guard !range.isEmpty else { return }
        let mid = range.lowerBound + range.count / 2
        let d = xyz[mid] - target
        let squared = (d * d).sum()
        if squared <= bestSquared { best = mid; bestSquared = squared }
        guard range.count > 1 else { return }
        let axis = Int(axes[mid])
        let delta = target[axis] - xyz[mid][axis]
        let (near, far) = delta < 0 ? (range.lowerBound..<mid, (mid + 1)..<range.upperBound)
                                    : ((mid + 1)..<range.upperBound, range.lowerBound..<mid)
        search(target, near, &best, &bestSquared)
        if delta * delta <= bestSquared { search(target, far, &best, &bestSquared) }
    }
}
