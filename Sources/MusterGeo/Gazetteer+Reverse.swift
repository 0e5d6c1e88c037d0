import Foundation

extension Gazetteer {
    /// Coordinates → the nearest town (and, in the US, the nearest ZIP centroid within 30 km).
    public func reverse(latitude: Double, longitude: Double) -> GeocodeResult? {
        guard latitude.isFinite, longitude.isFinite, let index = placeTree.nearest(toLat: latitude, lng: longitude)?.element else { return nil }
        let place = places[index]
        let zip = place.country == "US" ? nearestZIP(latitude: latitude, longitude: longitude, within: 30_000) : nil
        var answer = result(for: place, confidence: 0.8, zip: .some(zip))
        answer.latitude = latitude
        answer.longitude = longitude
        return answer
    }

    func nearestZIP(latitude: Double, longitude: Double, within limit: Double) -> ZIP? {
        guard let code = zipTree.nearest(toLat: latitude, lng: longitude, within: limit)?.element else { return nil }
        return zips[code]
    }
}
