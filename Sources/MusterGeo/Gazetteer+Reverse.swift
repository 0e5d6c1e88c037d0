import Foundation

extension Gazetteer {
    /// Coordinates → the nearest town (and, in the US, the nearest ZIP centroid within 30 km).
    public func reverse(latitude: Double, longitude: Double) -> GeocodeResult? {
        guard latitude.isFinite, longitude.isFinite, let index = placeGrid.nearest(toLat: latitude, lng: longitude) else { return nil }
        let place = places[index]
        var answer = result(for: place, confidence: 0.8)
        answer.latitude = latitude
        answer.longitude = longitude
        if place.country == "US", let zip = nearestZIP(latitude: latitude, longitude: longitude, within: 30_000) {
            answer.zipCode = zip.code
            answer.displayName = "\(place.name), \(place.stateCode ?? place.admin1) \(zip.code), US"
        }
        return answer
    }

    func nearestZIP(latitude: Double, longitude: Double, within limit: Double) -> ZIP? {
        guard let code = zipGrid.nearest(toLat: latitude, lng: longitude, within: limit) else { return nil }
        return zips[code]
    }
}

extension GeoGrid {
    /// The nearest element, searching rings of cells outwards until no closer one can exist.
    public func nearest(toLat lat: Double, lng: Double, within limit: Double = .infinity) -> Element? {
        var best: (distance: Double, element: Element)?
        // A ring r cells out is at least (r - 1) cells away: 111 km per cell north–south, less
        // east–west by the cosine of the latitude (taken where the ring comes closest to a pole).
        for ring in 0...360 {
            let cosine = max(cos(min(abs(lat) + Double(ring), 89.9) * .pi / 180), 0.001)
            let closest = Double(max(ring - 1, 0)) * 111_000 * cosine
            if closest > min(best?.distance ?? .infinity, limit) { break }
            forEach(inRing: ring, aroundLat: lat, lng: lng) { itemLat, itemLng, element in
                let d = distanceMeters(lat, lng, itemLat, itemLng)
                if d <= limit, d < (best?.distance ?? .infinity) { best = (d, element) }
            }
        }
        return best?.element
    }
}
