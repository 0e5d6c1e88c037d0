/// Scopes of analytics keys. Every app's keys can carry them; the data a key sends or reads is
/// always its own app's.
package enum AnalyticsScopes {
    package static let writeEvents = "write:analytics"
    package static let writeCrashes = "write:crashes"
    package static let read = "read:analytics"

    package static let all = [writeEvents, writeCrashes, read]
}
