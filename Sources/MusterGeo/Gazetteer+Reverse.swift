import Foundation

extension Gazetteer {
    /// How far the nearest town may be for a reverse answer: farther (open sea, `0,0`) is "no
    /// result", which the apps show as "not found", rather than a town hundreds of km away.
    package static let reverseLimit: Double = 100_000

    /// Coordinates → the nearest town within `reverseLimit` (and, in the US, the nearest ZIP
    /// centroid within 30 km).
    package func reverse(latitude: Double, longitude: Double) -> GeocodeResult? {
        guard latitude.isFinite, longitude.isFinite,
              let index = placeTree.nearest(toLat: latitude, lng: longitude, within: Self.reverseLimit)?.element else { return nil }
        let place = places[index]
        let zip = place.country == "US" ? nearestZIP(latitude: latitude, longitude: longitude, within: 30_000) : nil
        var answer = result(for: place, confidence: 0.8, zip: .some(zip))
        answer.latitude = latitude
        answer.longitude = longitude
        return answer
    }

    func nearestZIP(latitude: Double, longitude: Double, within limit: Double) -> ZIP? {
        zipTree.nearest(toLat: latitude, lng: longitude, within: limit)?.element
    }
}
