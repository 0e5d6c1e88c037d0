public import MusterEvents

/// Geocoding cannot answer yet (the gazetteer is loading) or at all (it failed to load).
public typealias GeocodeError = DomainError<GeocodeErrorCode>

public enum GeocodeErrorCode: String, Sendable, Hashable { case loading, unavailable }
