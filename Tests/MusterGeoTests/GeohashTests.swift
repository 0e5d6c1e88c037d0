import Foundation
import MusterGeo
import Testing

@Suite("Geohash cells: encoding and the cells a circle covers")
struct GeohashTests {
    @Test func knownPointsEncodeAsTheReferenceDoes() {
        // Reference values from the geohash definition (geohash.org).
        #expect(Geohash.encode(latitude: 57.64911, longitude: 10.40744, precision: 11) == "u4pruydqqvj")
        #expect(Geohash.encode(latitude: 42.6, longitude: -5.6, precision: 5) == "ezs42")
        #expect(Geohash.encode(latitude: 47.6062, longitude: -122.3321, precision: 5) == "c23nb")
        #expect(Geohash.encode(latitude: 95, longitude: 400, precision: 3).count == 3, "out-of-range input is clamped")
    }

    @Test func aCircleIsCoveredByEveryCellItTouchesAndNoOther() {
        let (lat, lng) = (44.0805, -103.2310)
        let cells = Geohash.covering(latitude: lat, longitude: lng, radius: 2000, precision: 5)
        #expect(cells.first == Geohash.encode(latitude: lat, longitude: lng, precision: 5), "the centre's cell first")
        // Points on the circle's edge lie in a covered cell; points well outside do not.
        for bearing in stride(from: 0.0, to: 360, by: 15) {
            let dLat = 1990 / 111_320 * cos(bearing * .pi / 180)
            let dLng = 1990 / (111_320 * cos(lat * .pi / 180)) * sin(bearing * .pi / 180)
            #expect(cells.contains(Geohash.encode(latitude: lat + dLat, longitude: lng + dLng, precision: 5)))
        }
        #expect(!cells.contains(Geohash.encode(latitude: lat + 0.3, longitude: lng, precision: 5)))
        #expect(cells.count < 12)
        // 50 km (the largest radius an action may have) stays within the limit.
        let wide = Geohash.covering(latitude: lat, longitude: lng, radius: 50_000, precision: 5)
        #expect((400...1200).contains(wide.count), "\(wide.count)")
        // Too many cells for the limit: coarser ones (a device's finer cell still meets them by prefix).
        let coarse = Geohash.covering(latitude: lat, longitude: lng, radius: 50_000, precision: 5, limit: 100)
        #expect((1...100).contains(coarse.count) && coarse.allSatisfy { $0.count == 4 }, "\(coarse)")
        #expect(Geohash.covering(latitude: .nan, longitude: lng, radius: 10, precision: 5).isEmpty)
        #expect(!Geohash.covering(latitude: lat, longitude: lng, radius: 1e300, precision: 5, limit: 10).isEmpty, "an absurd radius is the whole Earth, not a crash")
    }
}
