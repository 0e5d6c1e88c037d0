import Foundation
package import Hummingbird
import HummingbirdCore
import MusterEvents
import Synchronization
package import MusterPlatform
package import MusterRuntime

/// The read side of the OPL contract: `/api/mobile/data`, `/api/mobile/active-strikes`,
/// `/api/blocklist.json`. Every answer is cached per view; a matching hash costs a 304.
package enum MobileReadRoutes {
    /// 100 miles, the apps' region.
    package static let defaultRadius = 160_934
    package static let maxRadius = 1_000_000

    static let access = AccessRule.key(OPLScopes.app, scope: OPLScopes.readMobile)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, rate: RateLimiter, model: OPLReadModel) {
        let mobile = routes.group("/api/mobile", middleware: [RateLimitMiddleware(rate)])
        mobile.get("/data", access: access) { request, _ in
            let query = QueryParameters(request)
            let (key, lat, lng, radius, includeInactive) = try dataQuery(query)
            let answer = try await model.answer(key) { view in
                var body = view.mobileData(lat: lat, lng: lng, radius: radius, includeInactive: includeInactive,
                                           generatedAt: Timestamp.string(view.builtAt))
                let stamped = body
                body.generatedAt = ""
                return (stamped, body)
            }
            return answer.response(to: request, clientHash: try query.hash())
        }
        mobile.get("/active-strikes", access: access) { request, _ in
            let clientHash = try QueryParameters(request).hash()
            let answer = try await model.answer("active-strikes") { view in
                var body = view.activeStrikes(generatedAt: Timestamp.string(view.builtAt))
                let stamped = body
                body.generatedAt = ""
                return (stamped, body)
            }
            return answer.response(to: request, clientHash: clientHash)
        }

        let blocklist = routes.group("/api", middleware: [RateLimitMiddleware(rate)])
        blocklist.get("/blocklist.json", access: access) { request, _ in
            let query = QueryParameters(request)
            let (key, includeInactive, pages) = try blocklistQuery(query)
            let clientHash = try query.hash()
            let answer = try await model.answer(key) { view in
                let map = view.extensionMap(includeInactive: includeInactive, pages: pages)
                return (map, map)
            }
            return answer.response(to: request, clientHash: clientHash)
        }
    }

    /// `/api/mobile/data`'s parameters and the cache key of its answer.
    static func dataQuery(_ query: QueryParameters) throws -> (key: String, lat: Double, lng: Double, radius: Int, includeInactive: Bool) {
        guard let lat = try query.number("lat", in: -90...90), let lng = try query.number("lng", in: -180...180) else {
            throw APIError(.badRequest, "lat and lng are required (degrees)")
        }
        let radius = Int((try query.number("radius", in: 1...Double(maxRadius)) ?? Double(defaultRadius)).rounded())
        let includeInactive = try query.bool("includeInactive") ?? false
        return ("data|\(lat)|\(lng)|\(radius)|\(includeInactive)", lat, lng, radius, includeInactive)
    }

    /// `/api/blocklist.json`'s parameters and the cache key of its answer. The DNS filter sends
    /// no format; the extension sends format=extension. Same shape, but only the extension gets
    /// page entries (the DNS filter would block their whole host).
    static func blocklistQuery(_ query: QueryParameters) throws -> (key: String, includeInactive: Bool, pages: Bool) {
        let format = query.string("format")
        guard format == nil || format == "extension" else { throw APIError(.badRequest, "format must be extension (or absent)") }
        let includeInactive = try query.bool("includeInactive") ?? false
        return ("blocklist|\(format == nil)|\(includeInactive)", includeInactive, format != nil)
    }

    /// The cached answer a request target names, and the hash the client holds: what the fast
    /// path reads of the URI. Nil for anything the ordinary route should answer (a fuzz target
    /// feeds it arbitrary targets).
    static func fastPathKey(target: String) -> (key: String, hash: String?)? {
        guard target.hasPrefix("/api/") else { return nil }
        let uri = URI(target)
        let query = QueryParameters(uri.queryParameters)
        let key: String?
        switch uri.path {
        case "/api/mobile/data": key = try? dataQuery(query).key
        case "/api/blocklist.json": key = try? blocklistQuery(query).key
        case "/api/mobile/active-strikes": key = "active-strikes"
        default: key = nil
        }
        guard let key else { return nil }
        let hash: String?
        do { hash = try query.hash() } catch { return nil } // malformed: the route answers 400
        return (key, hash)
    }

    /// The hot path in the channel pipeline: a known key sending back the hash of a cached
    /// answer gets its 304 without becoming a task. Anything else (unknown key, new data, a
    /// malformed query, an empty rate bucket) goes the ordinary way, which answers the same. The
    /// key is one the authentication step already proved (`rememberedClient` never waits or looks
    /// up), and the routes' own rule admits it: the two paths cannot disagree on who may read.
    package static func fastPath(keys: APIKeyDirectory, rate: RateLimiter, model: OPLReadModel) -> FastPath {
        let targets = TargetKeys()
        return FastPath(name: "opl-not-modified") { request in
            guard let target = request.path, let (key, hash) = targets.key(of: target) else { return nil }
            guard let presented = request.headerFields.sole(.apiKey),
                  let client = keys.rememberedClient(presented), (try? access.admit(Caller(key: .proved(client)))) != nil,
                  let answer = model.cachedAnswer(key),
                  answer.matches(hash: hash, ifNoneMatch: request.headerFields.sole(.ifNoneMatch)),
                  rate.takeIfAvailable(client.id) else { return nil }
            return HTTPResponse(status: .notModified, headerFields: answer.headers)
        }
    }
}

/// The cache keys of the request targets the fast path has seen: apps poll with the same target,
/// and parsing it (URI, query, numbers) was a sixth of a 304's cost in user space. Bounded: when
/// full it starts over, so hostile targets cannot grow it.
final class TargetKeys: Sendable {
    private let known = Mutex<[String: (key: String, hash: String?)?]>([:])
    static let capacity = 4_096

    func key(of target: String) -> (key: String, hash: String?)? {
        if let found = known.withLock({ $0[target] }) { return found }
        let parsed = MobileReadRoutes.fastPathKey(target: target)
        known.withLock { known in
            if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
            known[target] = .some(parsed)
        }
        return parsed
    }
}
