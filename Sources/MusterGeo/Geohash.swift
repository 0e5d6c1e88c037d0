import Foundation

/// Geohash cells (base 32, 5 bits a character): what OPL's apps register for proximity alerts
/// instead of a position. Pure.
package enum Geohash {
    static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// The cell of `precision` characters (1 to 12) that holds the point.
    package static func encode(latitude: Double, longitude: Double, precision: Int) -> String {
        var lat = (-90.0, 90.0), lng = (-180.0, 180.0)
        var bits: [UInt8] = [], value: UInt8 = 0, count = 0, even = true
        let latitude = min(max(latitude, -90), 90), longitude = min(max(longitude, -180), 180)
        while bits.count < min(max(precision, 1), 12) {
            if even {
                let mid = (lng.0 + lng.1) / 2
                if longitude >= mid { value = value << 1 | 1; lng.0 = mid } else { value <<= 1; lng.1 = mid }
            } else {
                let mid = (lat.0 + lat.1) / 2
                if latitude >= mid { value = value << 1 | 1; lat.0 = mid } else { value <<= 1; lat.1 = mid }
            }
            even.toggle()
            count += 1
            if count == 5 { bits.append(alphabet[Int(value)]); value = 0; count = 0 }
        }
        return String(decoding: bits, as: UTF8.self)
    }

    /// The size of a cell in degrees: (latitude, longitude).
    package static func cellSize(precision: Int) -> (lat: Double, lng: Double) {
        let total = 5 * min(max(precision, 1), 12)
        let lngBits = (total + 1) / 2, latBits = total / 2
        return (180 / pow(2, Double(latBits)), 360 / pow(2, Double(lngBits)))
    }

    /// Every cell of `precision` that comes within `radius` metres of the point, at most `limit`
    /// of them (the nearest first when there are more).
    package static func covering(latitude: Double, longitude: Double, radius: Double, precision: Int, limit: Int = 5000) -> [String] {
        guard latitude.isFinite, longitude.isFinite, radius.isFinite, radius >= 0 else { return [] }
        let radius = min(radius, 20_037_508) // half the Earth's circumference: every cell is covered
        let size = cellSize(precision: precision)
        let dLat = radius / 111_320
        let dLng = radius / max(1, 111_320 * cos(latitude * .pi / 180))
        let rows = Int(((2 * dLat) / size.lat).rounded(.up)) + 2
        let columns = Int(((2 * min(dLng, 180)) / size.lng).rounded(.up)) + 2
        guard rows * columns <= 4 * limit + 64 || precision <= 1 else {
            return covering(latitude: latitude, longitude: longitude, radius: radius, precision: precision - 1, limit: limit)
        }
        var found: [(String, Double)] = []
        var seen = Set<String>()
        let south = floor((latitude - dLat + 90) / size.lat) * size.lat - 90
        let west = floor((longitude - dLng + 180) / size.lng) * size.lng - 180
        for row in 0..<rows {
            let cellSouth = south + Double(row) * size.lat
            guard cellSouth < 90, cellSouth + size.lat > -90 else { continue }
            for column in 0..<columns {
                var cellWest = west + Double(column) * size.lng
                if cellWest >= 180 { cellWest -= 360 } else if cellWest < -180 { cellWest += 360 }
                // The point of the cell nearest the centre.
                let nearestLat = min(max(latitude, cellSouth), cellSouth + size.lat)
                let nearestLng = min(max(longitude, cellWest), cellWest + size.lng)
                let distance = distanceMeters(latitude, longitude, nearestLat, nearestLng)
                guard distance <= radius else { continue }
                let cell = encode(latitude: cellSouth + size.lat / 2, longitude: cellWest + size.lng / 2, precision: precision)
                if seen.insert(cell).inserted { found.append((cell, distance)) }
            }
        }
        return found.sorted { $0.1 < $1.1 }.prefix(limit).map(\.0)
    }
}
