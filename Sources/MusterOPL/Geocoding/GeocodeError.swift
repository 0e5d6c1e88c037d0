/// Geocoding cannot answer yet (the gazetteer is loading) or at all (it failed to load).
public struct GeocodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable { case loading, unavailable }

    public let code: Code
    public let message: String
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
