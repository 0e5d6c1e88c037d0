import Foundation
import MusterEvents

/// The job-site check of time tracking: a position counts as on site when the circle of its
/// accuracy reaches within the site's radius plus the spec's 10 m tolerance. An entry outside is
/// kept and marked for the manager (the worker may have been offline and honest), never refused.
package enum Geofence {
    package static let defaultRadius = 100.0
    package static let tolerance = 10.0

    /// Great-circle distance in metres (haversine on a 6,371 km sphere: well under a metre off at site scale).
    package static func distance(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.lat - a.lat) * radians, dLon = (b.lon - a.lon) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.lat * radians) * cos(b.lat * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_000 * asin(min(1, h.squareRoot()))
    }

    /// How far outside the site a position `metres` from its centre, with `accuracy`, lies (0 or less: on site).
    package static func outside(metres: Double, accuracy: Double, radius: Double) -> Double {
        metres - max(0, accuracy) - radius - tolerance
    }

    /// Why a time entry needs a manager's look: each of its start and end positions off the site.
    static func review(entry: [String: JSONValue], site: [String: JSONValue]) -> [String] {
        guard let lat = site["latitude"]?.number, let lon = site["longitude"]?.number else { return [] }
        let radius = site["radiusMeters"]?.number ?? defaultRadius
        return ["start", "end"].compactMap { end in
            guard let pLat = entry[end + "Latitude"]?.number, let pLon = entry[end + "Longitude"]?.number else { return nil }
            let accuracy = entry[end + "Accuracy"]?.number ?? 0
            let metres = distance((pLat, pLon), (lat, lon))
            guard outside(metres: metres, accuracy: accuracy, radius: radius) > 0 else { return nil }
            return "\(end) \(Int(metres.rounded())) m from the site (±\(Int(accuracy.rounded())) m; radius \(Int(radius)) m + \(Int(tolerance)) m)"
        }
    }
}
