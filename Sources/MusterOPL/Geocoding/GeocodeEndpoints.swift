import Foundation
import MusterEvents
import MusterGeo
import MusterNATS

/// `svc.geocode.forward` and `svc.geocode.reverse`: the gazetteer over NATS for other services.
enum GeocodeEndpoints {
    struct ForwardQuery: Decodable { var address: String }
    struct ReverseQuery: Decodable { var latitude, longitude: Double }
    struct NoMatch: Encodable { var found = false }

    static func make(geocoder: Geocoder) -> [MicroEndpoint] {
        @Sendable func reply(_ result: GeocodeResult?) throws -> Data {
            try result.map { try JSONEncoder().encode($0) } ?? JSONEncoder().encode(NoMatch())
        }
        @Sendable func unavailable(_ error: any Error) -> MicroServiceError { MicroServiceError(code: 503, (error as? GeocodeError)?.message ?? "\(error)") }
        return [
            MicroEndpoint(name: "forward", subject: "svc.geocode.forward") { request in
                let address = try forwardQuery(request.payload)
                do { return try reply(try await geocoder.forward(address)) } catch { throw unavailable(error) }
            },
            MicroEndpoint(name: "reverse", subject: "svc.geocode.reverse") { request in
                let query = try reverseQuery(request.payload)
                do { return try reply(try await geocoder.reverse(latitude: query.latitude, longitude: query.longitude)) } catch {
                    throw unavailable(error)
                }
            },
        ]
    }

    /// The address of a forward request, 1 to 500 characters; anything else is a 400. (Pure, for the fuzzer.)
    static func forwardQuery(_ bytes: Data) throws -> String {
        guard let query = try? JSONDecoder().decode(ForwardQuery.self, from: bytes), (1...500).contains(query.address.count) else {
            throw MicroServiceError(code: 400, "expected {\"address\": \"City, ST\"} (1 to 500 characters)")
        }
        return query.address
    }

    /// The point of a reverse request, in range; anything else is a 400. (Pure, for the fuzzer.)
    static func reverseQuery(_ bytes: Data) throws -> ReverseQuery {
        guard let query = try? JSONDecoder().decode(ReverseQuery.self, from: bytes),
              (-90...90).contains(query.latitude), (-180...180).contains(query.longitude) else {
            throw MicroServiceError(code: 400, "expected {\"latitude\": -90…90, \"longitude\": -180…180}")
        }
        return query
    }
}
