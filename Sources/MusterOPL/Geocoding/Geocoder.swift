import Foundation
import Logging
import MusterGeo
import MusterRuntime

/// Forward and reverse geocoding for OPL: the offline gazetteer, loaded once.
/// A missing gazetteer file is not fatal: answers are then 503 naming the fix.
public struct Geocoder: Sendable {
    public let gazetteer: Gazetteer?
    public let loadError: String?
    /// Street addresses go here first when set.
    public var upstream: NominatimClient?
    var logger = Logger(label: "muster.geocode")

    public init(path: String, upstream: NominatimClient? = nil) {
        self.upstream = upstream
        do {
            gazetteer = try Gazetteer(contentsOf: path)
            loadError = nil
        } catch {
            gazetteer = nil
            loadError = "\(error)"
        }
    }

    public init(gazetteer: Gazetteer, upstream: NominatimClient? = nil) {
        self.upstream = upstream
        self.gazetteer = gazetteer
        loadError = nil
    }

    func loaded() throws -> Gazetteer {
        guard let gazetteer else { throw APIError(.serviceUnavailable, "geocoding is unavailable: \(loadError ?? "no gazetteer")") }
        return gazetteer
    }

    /// A street address asks the upstream first (street precision); everything else, and any
    /// upstream failure, is answered from the gazetteer (town or ZIP precision).
    public func forward(_ address: String) async throws -> GeocodeResult? {
        if let upstream, Gazetteer.parse(address).street != nil {
            do {
                if let found = try await upstream.search(address) { return found }
            } catch {
                logger.warning("geocoding upstream failed; answering from the gazetteer", metadata: ["error": "\(error)"])
            }
        }
        return try loaded().forward(address)
    }

    public func reverse(latitude: Double, longitude: Double) async throws -> GeocodeResult? {
        try loaded().reverse(latitude: latitude, longitude: longitude)
    }
}
