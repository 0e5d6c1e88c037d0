import Foundation

/// A place found for an address, or for coordinates.
package struct GeocodeResult: Sendable, Equatable, Codable {
    package var latitude: Double
    package var longitude: Double
    package var displayName: String
    /// 0…1: 0.9 a ZIP centroid, 0.8 a town, lower when a street address fell back to its town or ZIP.
    package var confidence: Double
    /// `geonames`, `zip`, or the upstream's name.
    package var source: String
    package var city: String?
    package var state: String?
    package var zipCode: String?
    package var country: String?

    package init(latitude: Double, longitude: Double, displayName: String, confidence: Double, source: String, city: String? = nil,
                state: String? = nil, zipCode: String? = nil, country: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.displayName = displayName
        self.confidence = confidence
        self.source = source
        self.city = city
        self.state = state
        self.zipCode = zipCode
        self.country = country
    }
}

extension Gazetteer {
    /// What an address string says, read from the end: `[street,] city[,] [state] [zip]`.
    package struct ParsedAddress: Sendable, Equatable {
        package var street: String?
        package var city: String?
        package var state: String?
        package var zip: String?
    }

    /// Reads "Rapid City, SD", "Rapid City, South Dakota", "57701", "Rapid City SD 57701" and
    /// "123 Main St, Rapid City, SD 57701".
    package static func parse(_ address: String) -> ParsedAddress {
        var parsed = ParsedAddress()
        var parts = address.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        if parts.last.map({ ["usa", "us", "united states", "united states of america"].contains($0.lowercased()) }) == true { parts.removeLast() }
        guard !parts.isEmpty else { return parsed }
        // The last part may hold "SD 57701", "57701", "SD", "South Dakota" or "Rapid City SD".
        var tail = parts.removeLast().split(separator: " ").map(String.init)
        if let last = tail.last, isZIP(last) {
            parsed.zip = String(last.prefix(5))
            tail.removeLast()
        }
        for take in stride(from: min(tail.count, 3), through: 1, by: -1) where parsed.state == nil {
            if let code = USStates.code(tail.suffix(take).joined(separator: " ")) {
                parsed.state = code
                tail.removeLast(take)
            }
        }
        if !tail.isEmpty { parts.append(tail.joined(separator: " ")) }
        if let city = parts.popLast() { parsed.city = city }
        if !parts.isEmpty { parsed.street = parts.joined(separator: ", ") }
        // "Rapid City" alone could also be a street; a part starting with a number is one.
        if parsed.street == nil, let city = parsed.city, city.first?.isNumber == true, parsed.zip == nil || city.contains(" ") {
            parsed.street = city
            parsed.city = nil
        }
        return parsed
    }

    static func isZIP(_ text: String) -> Bool {
        let digits = text.prefix(5)
        return digits.count == 5 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
            && (text.count == 5 || (text.count == 10 && text.dropFirst(5).first == "-" && text.suffix(4).allSatisfy(\.isNumber)))
    }

    /// Address → coordinates, offline. A street address falls back to its ZIP or town with a
    /// lower confidence (the gazetteer holds no streets).
    package func forward(_ address: String) -> GeocodeResult? {
        let parsed = Self.parse(address)
        let hasStreet = parsed.street != nil
        if let zipCode = parsed.zip, let zip = zips[zipCode] {
            return GeocodeResult(latitude: zip.latitude, longitude: zip.longitude, displayName: "\(zip.city), \(zip.state) \(zip.code), US",
                                 confidence: hasStreet ? 0.6 : 0.9, source: "zip", city: zip.city, state: zip.state, zipCode: zip.code,
                                 country: "US")
        }
        guard let city = parsed.city else { return nil }
        let key = Self.normalise(city)
        let confidence = hasStreet ? 0.5 : 0.8
        if let state = parsed.state {
            if let index = usPlaces["\(key)|\(state)"]?.first {
                return result(for: places[index], confidence: confidence)
            }
            if let codes = zipsByCity["\(key)|\(state)"], !codes.isEmpty {
                let found = codes.compactMap { zips[$0] }
                let lat = found.map(\.latitude).reduce(0, +) / Double(found.count)
                let lng = found.map(\.longitude).reduce(0, +) / Double(found.count)
                return GeocodeResult(latitude: lat, longitude: lng, displayName: "\(found[0].city), \(state), US",
                                     confidence: confidence - 0.1, source: "zip", city: found[0].city, state: state,
                                     zipCode: found.count == 1 ? found[0].code : nil, country: "US")
            }
            return nil
        }
        // A town without a state: take it when the name is unique, prefer the US otherwise.
        guard let candidates = placesByName[key], !candidates.isEmpty else { return nil }
        let us = candidates.filter { places[$0].country == "US" }
        let chosen = us.first ?? candidates[0]
        return result(for: places[chosen], confidence: candidates.count == 1 ? confidence - 0.1 : 0.4)
    }

    /// - Parameter zip: the ZIP to name; by default the one nearest the place (within 15 km).
    func result(for place: Place, confidence: Double, zip given: ZIP?? = nil) -> GeocodeResult {
        let region = place.stateCode ?? place.admin1
        let zip = given ?? (place.country == "US" ? nearestZIP(latitude: place.latitude, longitude: place.longitude, within: 15_000) : nil)
        let display = region.isEmpty ? "\(place.name)\(zip.map { " \($0.code)" } ?? ""), \(place.country)"
            : "\(place.name), \(region)\(zip.map { " \($0.code)" } ?? ""), \(place.country)"
        return GeocodeResult(latitude: place.latitude, longitude: place.longitude, displayName: display, confidence: confidence,
                             source: "geonames", city: place.name, state: region.isEmpty ? nil : region, zipCode: zip?.code,
                             country: place.country)
    }
}
