import Foundation

/// Great-circle distance in metres (haversine on the mean Earth radius).
package func distanceMeters(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
    let r = 6_371_008.8
    let dLat = (lat2 - lat1) * .pi / 180
    let dLng = (lng2 - lng1) * .pi / 180
    let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLng / 2) * sin(dLng / 2)
    return 2 * r * asin(min(1, sqrt(a)))
}

/// Points bucketed in one-degree cells, for "everything within R metres of here".
package struct GeoGrid<Element: Sendable>: Sendable {
    private var cells: [Int: [Int]] = [:]
    package private(set) var items: [(lat: Double, lng: Double, element: Element)] = []

    private static func cell(_ lat: Double, _ lng: Double) -> Int {
        let row = Int(floor(min(max(lat, -90), 89.999))) + 90
        let column = (Int(floor(lng)) % 360 + 360) % 360
        return row * 360 + column
    }

    package init() {}

    package mutating func insert(lat: Double, lng: Double, _ element: Element) {
        cells[Self.cell(lat, lng), default: []].append(items.count)
        items.append((lat, lng, element))
    }

    /// Every element within `radius` metres, with its distance, nearest first.
    package func within(_ radius: Double, ofLat lat: Double, lng: Double) -> [(distance: Double, element: Element)] {
        let dLat = radius / 111_000 + 1
        let cosLat = max(cos(min(abs(lat) + dLat, 89.9) * .pi / 180), 0.01)
        let dLng = min(radius / (111_000 * cosLat) + 1, 180)
        var found: [(distance: Double, index: Int, element: Element)] = []
        let rows = Int(floor(max(lat - dLat, -90)))...Int(floor(min(lat + dLat, 89.999)))
        let columnSpan = dLng >= 180 ? -180...179 : Int(floor(lng - dLng))...Int(floor(lng + dLng))
        var seen = Set<Int>()
        for row in rows {
            for column in columnSpan {
                let key = (row + 90) * 360 + ((column % 360) + 360) % 360
                guard seen.insert(key).inserted, let indexes = cells[key] else { continue }
                for index in indexes {
                    let item = items[index]
                    let d = distanceMeters(lat, lng, item.lat, item.lng)
                    if d <= radius { found.append((d, index, item.element)) }
                }
            }
        }
        // Ties keep insertion order, so equal inputs give byte-equal answers (and equal hashes).
        return found.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }.map { ($0.distance, $0.element) }
    }
}
