package import AsyncHTTPClient
import Foundation
package import MusterGeo
package import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

/// Street-level forward geocoding from a Nominatim-compatible service (`/search?q=…&format=jsonv2`),
/// for when one is configured (`MUSTER_GEOCODE_UPSTREAM`). Only street addresses go there; towns,
/// states and ZIP codes stay offline. Bounded by a timeout; any failure falls back to the gazetteer.
package struct NominatimClient: Sendable {
    package let searchURL: String
    package var timeout: TimeAmount = .seconds(3)
    let client: HTTPClient

    package init(searchURL: String, client: HTTPClient = .shared) {
        self.searchURL = searchURL
        self.client = client
    }

    struct Place: Decodable {
        var lat: String
        var lon: String
        var display_name: String?
    }

    package struct UpstreamError: Error, CustomStringConvertible {
        package var description: String
    }

    package func search(_ address: String) async throws -> GeocodeResult? {
        var components = URLComponents(string: searchURL)
        let existing = components?.queryItems ?? []
        components?.queryItems = existing + [
            URLQueryItem(name: "q", value: address), URLQueryItem(name: "format", value: "jsonv2"), URLQueryItem(name: "limit", value: "1"),
        ]
        guard let url = components?.url?.absoluteString else { throw UpstreamError(description: "bad upstream URL \(searchURL)") }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "muster-geocode/0.1 (self-hosted)")
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await client.execute(request, timeout: timeout)
        guard response.status == .ok else { throw UpstreamError(description: "upstream answered \(response.status.code)") }
        let body = try await response.body.collect(upTo: 1 << 20)
        guard let place = try JSONDecoder().decode([Place].self, from: body).first else { return nil }
        guard let lat = Double(place.lat), let lng = Double(place.lon), (-90...90).contains(lat), (-180...180).contains(lng) else {
            throw UpstreamError(description: "upstream sent coordinates that are not coordinates")
        }
        return GeocodeResult(latitude: lat, longitude: lng, displayName: String((place.display_name ?? address).prefix(500)),
                             confidence: 0.95, source: "upstream")
    }
}
