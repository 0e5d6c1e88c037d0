/// The name and major version of an event: `<app>.<aggregate>.<event>.v<major>`.
///
/// Its subject in the log is `events.<app>.<aggregate>.<aggregateId>.<event>.v<major>`, so filters
/// by app, aggregate or event are NATS wildcards and one aggregate's history is
/// `events.<app>.<aggregate>.<id>.>`.
public struct EventType: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let app: String
    public let aggregate: String
    public let event: String
    public let major: Int

    public init(app: String, aggregate: String, event: String, major: Int) {
        self.app = app
        self.aggregate = aggregate
        self.event = event
        self.major = major
    }

    /// `platform.apikey.issued.v1`
    public var description: String { "\(app).\(aggregate).\(event).v\(major)" }
    /// `platform.apikey.issued`, the same across majors.
    public var family: String { "\(app).\(aggregate).\(event)" }

    /// Parses `platform.apikey.issued.v1`.
    public init?(_ name: String) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("v"), let major = Int(parts[3].dropFirst()), major > 0,
              parts[0..<3].allSatisfy(Subject.isToken) else { return nil }
        self.init(app: String(parts[0]), aggregate: String(parts[1]), event: String(parts[2]), major: major)
    }

    /// The subject of this event for one aggregate.
    public func subject(aggregateID: String) -> String {
        "events.\(app).\(aggregate).\(aggregateID).\(event).v\(major)"
    }

    /// Every event of this type, whatever its aggregate: what a NATS permission must allow.
    public var subjectFilter: String { subject(aggregateID: "*") }

    /// Every event of one aggregate, whatever its type: the optimistic-concurrency filter.
    public func aggregateFilter(aggregateID: String) -> String {
        "events.\(app).\(aggregate).\(aggregateID).>"
    }

    /// Where the JSON Schema of this type lives, relative to the repository root.
    public var schemaPath: String { "schemas/events/\(app)/\(aggregate).\(event).v\(major).json" }

    public static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.description < rhs.description }
}

/// Subjects of the log.
public enum Subject {
    /// A subject token as Muster allows it: letters, digits, `-` and `_`, at most 128 characters.
    public static func isToken(_ token: Substring) -> Bool {
        !token.isEmpty && token.count <= 128 && token.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45 || byte == 95
        }
    }

    public static func isToken(_ token: String) -> Bool { isToken(Substring(token)) }

    /// Splits `events.<app>.<aggregate>.<id>.<event>.v<major>` into its type and aggregate id.
    public static func parse(_ subject: String) -> (type: EventType, aggregateID: String)? {
        let parts = subject.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "events", parts[1...4].allSatisfy(isToken),
              parts[5].hasPrefix("v"), let major = Int(parts[5].dropFirst()), major > 0 else { return nil }
        return (EventType(app: String(parts[1]), aggregate: String(parts[2]), event: String(parts[4]), major: major),
                String(parts[3]))
    }
}
