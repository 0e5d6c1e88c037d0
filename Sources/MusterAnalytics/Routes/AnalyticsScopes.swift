/// Scopes of analytics keys. Every app's keys can carry them; the data a key sends or reads is
/// always its own app's.
public enum AnalyticsScopes {
    public static let writeEvents = "write:analytics"
    public static let writeCrashes = "write:crashes"
    public static let read = "read:analytics"

    public static let all = [writeEvents, writeCrashes, read]
}
