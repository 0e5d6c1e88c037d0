/// The data of one event type at one major version. Register each type once in an `EventCatalog`.
///
/// `validate()` holds the rules JSON Schema states beyond shape (patterns, ranges, lengths), so
/// that the Swift type and `schemas/events/…` refuse the same documents; a test keeps them agreed.
public protocol EventPayload: Codable, Sendable, Equatable {
    static var eventType: EventType { get }
    /// The aggregate this event belongs to; it becomes a subject token.
    var aggregateID: String { get }
    func validate() throws
}

extension EventPayload {
    public func validate() throws {}
    public var eventType: EventType { Self.eventType }
}

/// An event refused by its type's rules, naming the field (as a JSON pointer) and why.
public struct EventValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field.isEmpty ? "/" : field): \(reason)" }
}

/// Small checks that mirror JSON Schema keywords, each naming its field.
public enum Validate {
    public static func pattern(_ value: String, _ regex: Regex<Substring>, field: String, _ what: String) throws {
        guard value.wholeMatch(of: regex) != nil else { throw EventValidationError(field: field, "must be \(what)") }
    }

    public static func length(_ value: String, _ range: ClosedRange<Int>, field: String) throws {
        guard range.contains(value.count) else {
            throw EventValidationError(field: field, "must be \(range.lowerBound) to \(range.upperBound) characters")
        }
    }

    public static func count<C: Collection>(_ value: C, _ range: ClosedRange<Int>, field: String) throws {
        guard range.contains(value.count) else {
            throw EventValidationError(field: field, "must have \(range.lowerBound) to \(range.upperBound) items")
        }
    }

    public static func unique<T: Hashable>(_ values: [T], field: String) throws {
        guard Set(values).count == values.count else { throw EventValidationError(field: field, "items must be unique") }
    }

    public static func oneOf(_ value: String, _ allowed: Set<String>, field: String) throws {
        guard allowed.contains(value) else {
            throw EventValidationError(field: field, "must be one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    /// RFC 3339 date-time in UTC with a `Z`, as Muster writes them (`2026-02-10T19:23:45Z`).
    public static func timestamp(_ value: String, field: String) throws {
        try pattern(value, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z/, field: field, "an RFC 3339 UTC timestamp")
    }
}
