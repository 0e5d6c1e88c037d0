import Foundation
import Hummingbird
import Logging
import NIOPosix
import MusterEvents
import MusterGeo
import MusterLog
import MusterNATS
import MusterOPL
import MusterPlatform
import MusterRuntime
import ServiceLifecycle

/// geocode: addresses ↔ coordinates from the offline gazetteer, over NATS (`svc.geocode.forward`,
/// `svc.geocode.reverse`) and the apps' two HTTP routes; places submitted strikes that came
/// without coordinates (`opl.action.geocoded.v1`).
public struct GeocodeService: MusterServiceModule {
    public let name = "geocode"
    public let summary = "addresses to coordinates and back, offline"
    let platform: PlatformKit
    let rate: RateLimiter
    /// The shared projections this service runs (see `MusterProcess.modules`).
    let runners: [any Service]
    public let geocoder: Geocoder

    public init(platform: PlatformKit, rate: RateLimiter, runners: [any Service], geocoder: Geocoder) {
        self.platform = platform
        self.rate = rate
        self.runners = runners
        self.geocoder = geocoder
    }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        let enrich = EventProcessor(name: "opl-geocode", filterSubjects: ["events.opl.action.*.submitted.v1"], log: environment.log,
                                    logger: environment.logger) { [geocoder, log = environment.log] event in
            guard let submitted = event.payload as? ActionSubmitted else { return }
            guard let enrichment = try await Self.enrichment(for: submitted, geocoder: geocoder) else { return }
            _ = try await log.append(enrichment, options: AppendOptions(idempotencyKey: "geocoded:\(submitted.actionId)",
                                                                        actor: "service:geocode"))
        }
        return runners + [GazetteerLoader(geocoder: geocoder, logger: environment.logger), enrich]
    }

    /// The geocoded event for a submission that came without coordinates, when its location text
    /// names a place the gazetteer knows.
    public static func enrichment(for submitted: ActionSubmitted, geocoder: Geocoder) async throws -> ActionGeocoded? {
        let location = submitted.action.location.trimmingCharacters(in: .whitespaces)
        // Still loading: forward throws and the processor retries later. No gazetteer at all: skip.
        guard submitted.action.coordinates == nil, location.lowercased() != "unknown", geocoder.loadError == nil,
              let found = try await geocoder.forward(location) else { return nil }
        return ActionGeocoded(actionId: submitted.actionId, latitude: found.latitude, longitude: found.longitude,
                              displayName: String(found.displayName.prefix(500)), confidence: found.confidence, source: found.source)
    }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        GeocodeRoutes.add(to: routes, keys: APIKeyMiddleware(keys: platform.directory, scope: OPLScopes.readMobile), rate: rate,
                          geocoder: geocoder)
    }

    struct ForwardQuery: Decodable { var address: String }
    struct ReverseQuery: Decodable { var latitude, longitude: Double }
    struct NoMatch: Encodable { var found = false }

    public func endpoints(in environment: MusterEnvironment) -> [MicroEndpoint] {
        let geocoder = geocoder
        @Sendable func reply(_ result: GeocodeResult?) throws -> Data {
            try result.map { try JSONEncoder().encode($0) } ?? JSONEncoder().encode(NoMatch())
        }
        @Sendable func unavailable(_ error: any Error) -> MicroServiceError { MicroServiceError(code: 503, "\((error as? APIError)?.message ?? "\(error)")") }
        return [
            MicroEndpoint(name: "forward", subject: "svc.geocode.forward") { request in
                guard let query = try? JSONDecoder().decode(ForwardQuery.self, from: request.payload), (1...500).contains(query.address.count) else {
                    throw MicroServiceError(code: 400, "expected {\"address\": \"City, ST\"} (1 to 500 characters)")
                }
                do { return try reply(try await geocoder.forward(query.address)) } catch { throw unavailable(error) }
            },
            MicroEndpoint(name: "reverse", subject: "svc.geocode.reverse") { request in
                guard let query = try? JSONDecoder().decode(ReverseQuery.self, from: request.payload),
                      (-90...90).contains(query.latitude), (-180...180).contains(query.longitude) else {
                    throw MicroServiceError(code: 400, "expected {\"latitude\": -90…90, \"longitude\": -180…180}")
                }
                do { return try reply(try await geocoder.reverse(latitude: query.latitude, longitude: query.longitude)) } catch {
                    throw unavailable(error)
                }
            },
        ]
    }
}

/// Loads the gazetteer on NIO's blocking-work pool at start, so HTTP and NATS answer meanwhile,
/// then stays until shutdown (a service that returned would stop the process).
struct GazetteerLoader: Service {
    let geocoder: Geocoder
    let logger: Logger

    func run() async throws {
        let start = ContinuousClock.now
        try await NIOThreadPool.singleton.runIfActive { geocoder.load() }
        if let error = geocoder.loadError {
            logger.error("geocoding unavailable", metadata: ["error": "\(error)"])
        } else if let gazetteer = geocoder.gazetteer {
            logger.info("gazetteer loaded", metadata: ["places": "\(gazetteer.places.count)", "zips": "\(gazetteer.zips.count)",
                                                       "took": "\(ContinuousClock.now - start)"])
        }
        try? await gracefulShutdown()
    }
}
