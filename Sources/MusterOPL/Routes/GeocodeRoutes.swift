import Foundation
package import Hummingbird
import MusterGeo
package import MusterRuntime
import NIOFoundationEssentialsCompat

/// `POST /api/mobile/geocode` and `POST /api/mobile/reverse-geocode`, answered from the gazetteer.
/// No match is 200 with `success: false` and no `result` (both apps then show "not found").
package enum GeocodeRoutes {
    struct ForwardRequest: Decodable {
        var address, street, city, state, zipCode: String?
    }

    struct ForwardAnswer: ResponseEncodable {
        struct Result: Encodable {
            var latitude, longitude: Double
            var displayName: String?
            var confidence: Double?
            var source: String?
        }
        var success: Bool
        /// Always a string here (the apps decode it so).
        var input: String
        var result: Result?
        var message: String?
    }

    struct ReverseRequest: Decodable {
        var latitude, longitude: Double
    }

    struct ReverseAnswer: ResponseEncodable {
        struct Input: Encodable { var latitude, longitude: Double }
        struct Result: Encodable {
            var address, city, state, zipCode, country, displayName: String?
        }
        var success: Bool
        /// Always an object here (the Android app declares it so).
        var input: Input
        var result: Result?
        var message: String?
    }

    package static func add(to routes: Routes<Router<MusterRequestContext>>, rate: RateLimiter, geocoder: Geocoder) {
        let mobile = routes.group("/api/mobile", middleware: [RateLimitMiddleware(rate)])
        mobile.post("/geocode", access: MobileReadRoutes.access) { request, context in
            let bytes = try await request.body.collect(upTo: 16 * 1024)
            let body = try JSONDecoder().decode(ForwardRequest.self, from: bytes)
            try RequestJSON.refuseNulls(bytes)
            // Each part as sent, in Unicode scalars (as the description counts), before any trimming.
            for (name, part) in [("address", body.address), ("street", body.street), ("city", body.city), ("state", body.state),
                                 ("zipCode", body.zipCode)] where (part?.unicodeScalars.count ?? 0) > 500 {
                throw APIError(.unprocessableContent, "\(name) must be at most 500 characters")
            }
            let address = body.address?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmptyString
                ?? [body.street, body.city, [body.state, body.zipCode].compactMap { $0 }.joined(separator: " ")]
                .compactMap { $0?.trimmingCharacters(in: .whitespaces).nonEmptyString }.joined(separator: ", ")
            guard !address.isEmpty else { throw APIError(.unprocessableContent, "address is required") }
            guard address.unicodeScalars.count <= 500 else { throw APIError(.unprocessableContent, "address must be at most 500 characters") }
            guard let found = try await geocoder.forward(address) else {
                return ForwardAnswer(success: false, input: address, message: "No match found")
            }
            return ForwardAnswer(success: true, input: address,
                                 result: .init(latitude: found.latitude, longitude: found.longitude, displayName: found.displayName,
                                               confidence: found.confidence, source: found.source))
        }
        mobile.post("/reverse-geocode", access: MobileReadRoutes.access) { request, context in
            let body = try await JSONDecoder().decode(ReverseRequest.self, from: request.body.collect(upTo: 16 * 1024))
            guard body.latitude.isFinite, (-90...90).contains(body.latitude), body.longitude.isFinite, (-180...180).contains(body.longitude) else {
                throw APIError(.unprocessableContent, "latitude must be -90…90 and longitude -180…180")
            }
            let input = ReverseAnswer.Input(latitude: body.latitude, longitude: body.longitude)
            guard let found = try await geocoder.reverse(latitude: body.latitude, longitude: body.longitude) else {
                return ReverseAnswer(success: false, input: input, message: "No match found")
            }
            return ReverseAnswer(success: true, input: input,
                                 result: .init(address: found.displayName, city: found.city, state: found.state, zipCode: found.zipCode,
                                               country: found.country, displayName: found.displayName))
        }
    }
}

extension String {
    var nonEmptyString: String? { isEmpty ? nil : self }
}
