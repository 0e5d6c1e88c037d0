import Foundation
import MusterGeo
import MusterRuntime

/// Forward and reverse geocoding for OPL: the offline gazetteer, loaded once.
/// A missing gazetteer file is not fatal: answers are then 503 naming the fix.
public struct Geocoder: Sendable {
    public let gazetteer: Gazetteer?
    public let loadError: String?

    public init(path: String) {
        do {
            gazetteer = try Gazetteer(contentsOf: path)
            loadError = nil
        } catch {
            gazetteer = nil
            loadError = "\(error)"
        }
    }

    public init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        loadError = nil
    }

    func loaded() throws -> Gazetteer {
        guard let gazetteer else { throw APIError(.serviceUnavailable, "geocoding is unavailable: \(loadError ?? "no gazetteer")") }
        return gazetteer
    }

    public func forward(_ address: String) async throws -> GeocodeResult? { try loaded().forward(address) }

    public func reverse(latitude: Double, longitude: Double) async throws -> GeocodeResult? {
        try loaded().reverse(latitude: latitude, longitude: longitude)
    }
}
