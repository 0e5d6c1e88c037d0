import Foundation
import Hummingbird
import MusterEvents
import MusterPlatform
import MusterRuntime

/// The read side of the OPL contract: `/api/mobile/data`, `/api/mobile/active-strikes`,
/// `/api/blocklist.json`. Every answer is cached per view; a matching hash costs a 304.
public enum MobileReadRoutes {
    /// 100 miles, the apps' region.
    public static let defaultRadius = 160_934
    public static let maxRadius = 1_000_000

    public static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyMiddleware, rate: RateLimiter,
                           model: OPLReadModel) {
        let mobile = routes.group("/api/mobile", middleware: [keys, RateLimitMiddleware(rate)])
        mobile.get("/data") { request, _ in
            let query = QueryParameters(request)
            guard let lat = try query.number("lat", in: -90...90), let lng = try query.number("lng", in: -180...180) else {
                throw APIError(.badRequest, "lat and lng are required (degrees)")
            }
            let radius = Int((try query.number("radius", in: 1...Double(maxRadius)) ?? Double(defaultRadius)).rounded())
            let includeInactive = try query.bool("includeInactive") ?? false
            let answer = try await model.answer("data|\(lat)|\(lng)|\(radius)|\(includeInactive)") { view in
                var body = view.mobileData(lat: lat, lng: lng, radius: radius, includeInactive: includeInactive,
                                           generatedAt: Timestamp.string(view.builtAt))
                let stamped = body
                body.generatedAt = ""
                return (stamped, body)
            }
            return answer.response(to: request, clientHash: query.string("hash"))
        }
        mobile.get("/active-strikes") { request, _ in
            let answer = try await model.answer("active-strikes") { view in
                var body = view.activeStrikes(generatedAt: Timestamp.string(view.builtAt))
                let stamped = body
                body.generatedAt = ""
                return (stamped, body)
            }
            return answer.response(to: request, clientHash: QueryParameters(request).string("hash"))
        }

        let blocklist = routes.group("/api", middleware: [keys, RateLimitMiddleware(rate)])
        blocklist.get("/blocklist.json") { request, _ in
            let query = QueryParameters(request)
            // The DNS filter sends no format; the extension sends format=extension. Same shape,
            // but the DNS filter must not get host/path entries on shared hosts.
            let format = query.string("format")
            guard format == nil || format == "extension" else {
                throw APIError(.badRequest, "format must be extension (or absent)")
            }
            let includeInactive = try query.bool("includeInactive") ?? false
            let dnsSafe = format == nil
            let answer = try await model.answer("blocklist|\(dnsSafe)|\(includeInactive)") { view in
                let map = view.extensionMap(includeInactive: includeInactive, dnsSafe: dnsSafe)
                return (map, map)
            }
            return answer.response(to: request, clientHash: query.string("hash"))
        }
    }
}
