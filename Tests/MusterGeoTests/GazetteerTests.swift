import Foundation
import MusterGeo
import MusterTesting
import Testing

@Suite("Gazetteer: parsing addresses, forward and reverse, without I/O but the fixture file")
struct GazetteerTests {
    static let gazetteer: Gazetteer = try! Gazetteer(contentsOf: Repository.path("Tests/Fixtures/gazetteer-sample.tsv"))

    @Test(arguments: [
        ("Rapid City, SD", nil, "Rapid City", "SD", nil),
        ("Rapid City, South Dakota", nil, "Rapid City", "SD", nil),
        ("rapid city sd 57701", nil, "rapid city", "SD", "57701"),
        ("57701", nil, nil, nil, "57701"),
        ("57701-1234", nil, nil, nil, "57701"),
        ("123 Main St, Rapid City, SD 57701", "123 Main St", "Rapid City", "SD", "57701"),
        ("123 Main St, Rapid City, SD 57701, USA", "123 Main St", "Rapid City", "SD", "57701"),
        ("Sioux Falls, SD", nil, "Sioux Falls", "SD", nil),
        ("Minneapolis", nil, "Minneapolis", nil, nil),
    ] as [(String, String?, String?, String?, String?)])
    func parsesTheFormsPeopleType(_ input: String, street: String?, city: String?, state: String?, zip: String?) {
        let parsed = Gazetteer.parse(input)
        #expect(parsed.street == street && parsed.city == city && parsed.state == state && parsed.zip == zip, "\(input) → \(parsed)")
    }

    @Test func forwardAnswersWithConfidenceAndSource() throws {
        let city = try #require(Self.gazetteer.forward("Rapid City, SD"))
        #expect(abs(city.latitude - 44.08) < 0.01 && abs(city.longitude + 103.23) < 0.01)
        #expect(city.source == "geonames" && city.confidence == 0.8 && city.state == "SD" && city.country == "US")
        let zip = try #require(Self.gazetteer.forward("57701"))
        #expect(zip.source == "zip" && zip.confidence == 0.9 && zip.city == "Rapid City")
        // A street address falls back to its ZIP, with lower confidence.
        let street = try #require(Self.gazetteer.forward("512 Main St, Rapid City, SD 57701"))
        #expect(street.source == "zip" && street.confidence == 0.6)
        let streetNoZip = try #require(Self.gazetteer.forward("512 Main St, Rapid City, SD"))
        #expect(streetNoZip.source == "geonames" && streetNoZip.confidence == 0.5)
        #expect(Self.gazetteer.forward("Rapid City, South Dakota")?.latitude == city.latitude)
        #expect(Self.gazetteer.forward("St. Paul, MN")?.city == "Saint Paul")
        #expect(Self.gazetteer.forward("Atlantis, ZZ") == nil)
        #expect(Self.gazetteer.forward("") == nil)
        #expect(Self.gazetteer.forward(String(repeating: "<script>", count: 50)) == nil)
    }

    @Test func reverseFindsTheNearestTownAndZIP() throws {
        let place = try #require(Self.gazetteer.reverse(latitude: 44.0805, longitude: -103.2310))
        #expect(place.city == "Rapid City" && place.state == "SD" && place.country == "US")
        #expect(place.zipCode?.hasPrefix("577") == true)
        #expect(place.displayName.contains("Rapid City, SD"))
        // 0,0 is open sea: no result (the nearest town would be hundreds of km away), which the apps
        // show as "not found"; within the limit the nearest town answers, without a ZIP beyond 30 km.
        #expect(Self.gazetteer.reverse(latitude: 0, longitude: 0) == nil)
        let outside = try #require(Self.gazetteer.reverse(latitude: 44.5, longitude: -103.2310))
        #expect(outside.zipCode == nil || outside.zipCode?.hasPrefix("57") == true)
        #expect(Self.gazetteer.reverse(latitude: .nan, longitude: 0) == nil)
        // The tree search agrees with a scan over every place (none beyond the limit).
        var rng = SplitMix(seed: 42)
        let random = (0..<300).map { _ in (Double.random(in: -90...90, using: &rng), Double.random(in: -180...180, using: &rng)) }
        for (lat, lng) in [(45.0, -93.2), (47.6, -122.3), (43.5, -96.7), (44.9, -103.9), (-33.9, 151.2), (89.5, 10.0)] + random {
            let nearest = try #require(Self.gazetteer.places.min { distanceMeters(lat, lng, $0.latitude, $0.longitude) < distanceMeters(lat, lng, $1.latitude, $1.longitude) })
            let expected = distanceMeters(lat, lng, nearest.latitude, nearest.longitude) <= Gazetteer.reverseLimit ? nearest.name : nil
            #expect(Self.gazetteer.reverse(latitude: lat, longitude: lng)?.city == expected, "\(lat),\(lng)")
        }
    }

    @Test func aBrokenFileIsAClearError() {
        #expect(throws: Gazetteer.LoadError.self) { try Gazetteer(data: Data("P\t1\t2\n".utf8)) }
        #expect(throws: Gazetteer.LoadError.self) { try Gazetteer(contentsOf: "/nonexistent/places.tsv") }
    }
}
