import Foundation
import Logging
import MusterEvents
import MusterGeo
import MusterLog

/// Places submitted strikes that came without coordinates: `opl.action.geocoded.v1` from the
/// location text, when the gazetteer knows the place.
package enum GeocodeEnrichment {
    static func processor(geocoder: Geocoder, log: EventLog, logger: Logger) -> EventProcessor {
        EventProcessor(name: "opl-geocode", filterSubjects: [ActionSubmitted.eventType.familyFilter], log: log, logger: logger) { event in
            guard let submitted = event.payload as? ActionSubmitted else { return }
            guard let enrichment = try await Self.enrichment(for: submitted, geocoder: geocoder) else { return }
            _ = try await log.append(enrichment, options: AppendOptions(idempotencyKey: "geocoded:\(submitted.actionId)",
                                                                        actor: "service:geocode"))
        }
    }

    /// The geocoded event for a submission that came without coordinates, when its location text
    /// names a place the gazetteer knows.
    package static func enrichment(for submitted: ActionSubmitted, geocoder: Geocoder) async throws -> ActionGeocoded? {
        let location = submitted.action.location.trimmingCharacters(in: .whitespaces)
        // Still loading: forward throws and the processor retries later. No gazetteer at all: skip.
        guard submitted.action.coordinates == nil, location.lowercased() != "unknown", geocoder.loadError == nil,
              let found = try await geocoder.forward(location) else { return nil }
        return ActionGeocoded(actionId: submitted.actionId, latitude: found.latitude, longitude: found.longitude,
                              displayName: String(found.displayName.prefix(500)), confidence: found.confidence, source: found.source)
    }
}
