import Logging
import MusterGeo
import NIOPosix
import ServiceLifecycle

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
