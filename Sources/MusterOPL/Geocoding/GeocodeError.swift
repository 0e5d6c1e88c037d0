package import MusterEvents

/// Geocoding cannot answer yet (the gazetteer is loading) or at all (it failed to load).
package typealias GeocodeError = DomainError<GeocodeErrorCode>

package enum GeocodeErrorCode: String, Sendable, Hashable { case loading, unavailable }
