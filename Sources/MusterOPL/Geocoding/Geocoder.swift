import Foundation
import Logging
import MusterEvents
package import MusterGeo
import Synchronization

/// Forward and reverse geocoding for OPL: the offline gazetteer, loaded once, off the request
/// path (the full file takes seconds to index, so the service starts answering at once and says
/// 503 + `Retry-After` until it is ready). A missing file is not fatal either: answers are then
/// 503 naming the fix.
package final class Geocoder: Sendable {
    enum State {
        case waiting(path: String)
        case ready(Gazetteer)
        case failed(String)
    }

    private let state: Mutex<State>
    /// Street addresses go here first when set.
    package let upstream: NominatimClient?
    let logger = Logger(label: "muster.geocode")

    /// A geocoder that loads `path` when `load()` is called.
    package init(path: String, upstream: NominatimClient? = nil) {
        state = Mutex(.waiting(path: path))
        self.upstream = upstream
    }

    package init(gazetteer: Gazetteer, upstream: NominatimClient? = nil) {
        state = Mutex(.ready(gazetteer))
        self.upstream = upstream
    }

    /// Reads and indexes the file (blocking: call it from a thread pool). Once only.
    package func load() {
        guard case .waiting(let path) = state.withLock({ $0 }) else { return }
        let result: State
        do { result = .ready(try Gazetteer(contentsOf: path)) } catch { result = .failed("\(error)") }
        state.withLock { $0 = result }
    }

    package var gazetteer: Gazetteer? {
        if case .ready(let gazetteer) = state.withLock({ $0 }) { return gazetteer }
        return nil
    }

    /// Why the geocoder cannot answer yet (`/ready`): still loading. A file that failed to load is
    /// not waited for: geocoding then answers 503 naming the fix, and the rest of the role serves.
    package var notReady: String? {
        if case .waiting = state.withLock({ $0 }) { return "the gazetteer is still loading" }
        return nil
    }

    /// Why there is no gazetteer, once loading has failed.
    package var loadError: String? {
        if case .failed(let error) = state.withLock({ $0 }) { return error }
        return nil
    }

    func loaded() throws -> Gazetteer {
        switch state.withLock({ $0 }) {
        case .ready(let gazetteer): return gazetteer
        case .waiting: throw GeocodeError(.loading, "geocoding is still loading its gazetteer; retry shortly")
        case .failed(let error): throw GeocodeError(.unavailable, "geocoding is unavailable: \(error)")
        }
    }

    /// A street address asks the upstream first (street precision); everything else, and any
    /// upstream failure, is answered from the gazetteer (town or ZIP precision).
    package func forward(_ address: String) async throws -> GeocodeResult? {
        if let upstream, Gazetteer.parse(address).street != nil {
            do {
                if let found = try await upstream.search(address) { return found }
            } catch {
                logger.warning("geocoding upstream failed; answering from the gazetteer", metadata: ["error": "\(error)"])
            }
        }
        return try loaded().forward(address)
    }

    package func reverse(latitude: Double, longitude: Double) async throws -> GeocodeResult? {
        try loaded().reverse(latitude: latitude, longitude: longitude)
    }
}
