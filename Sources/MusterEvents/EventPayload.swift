package import MusterJSON

/// The data of one event type at one major version. Register each type once in an `EventCatalog`.
///
/// `validate()` holds the rules JSON Schema states beyond shape (patterns, ranges, lengths), so
/// that the Swift type and `schemas/events/…` refuse the same documents; a test keeps them agreed.
package protocol EventPayload: Codable, Sendable, Equatable {
    static var eventType: EventType { get }
    /// How long the log keeps events of this type: forever unless the app that owns it says
    /// otherwise (its analytics and crash reports: 400 days).
    static var retention: EventRetention { get }
    /// The aggregate this event belongs to; it becomes a subject token.
    var aggregateID: String { get }
    func validate() throws
    /// The payload of a stored envelope (whose members `envelope` reads): by its hand-written
    /// reader when it has one (`StoredFieldsDecodable`), else by its `Decodable` conformance.
    /// Given, not written: chosen once for each type where it conforms, so that no event asks
    /// the runtime which way its type reads (a conformance lookup and two dynamic casts each).
    static func decodeStoredData(_ envelope: JSONFields) throws -> Self
    /// Writes the payload as the stored envelope's `data` member: by hand when the type has its
    /// own writer (`JSONObjectEncodable`), else by its `Encodable` conformance. Given, as above.
    func encodeStoredData(_ envelope: inout JSONObjectWriter) throws
}

extension EventPayload {
    package static var retention: EventRetention { .forever }
    package func validate() throws {}
    package var eventType: EventType { Self.eventType }
}

/// How long the log keeps an event: each stored event of a kept-for type carries JetStream's
/// per-message TTL (`Nats-TTL`), and the server removes it when that has passed. Folds keep what
/// they folded from it (their snapshot or tables); a rebuild that cannot reach back that far
/// starts from the snapshot and says so.
package struct EventRetention: Sendable, Equatable, CustomStringConvertible {
    /// How long; nil for forever.
    package let kept: Duration?
    /// The `Nats-TTL` header's value (whole seconds, at least one); nil for forever. Made once,
    /// not per append: the collector stamps it on tens of thousands of events a second.
    package let ttlHeader: String?

    private init(kept: Duration?) {
        self.kept = kept
        ttlHeader = kept.map { "\(max(1, $0.components.seconds))s" }
    }

    package static let forever = EventRetention(kept: nil)

    package static func keptFor(_ duration: Duration) -> EventRetention { EventRetention(kept: duration) }

    /// Analytics and crash reports: high volume, useful for about a year of dashboards and
    /// year-over-year comparisons.
    package static let analytics = EventRetention.keptFor(.seconds(400 * 86_400))

    package var description: String {
        guard let seconds = kept?.components.seconds else { return "forever" }
        return seconds % 86_400 == 0 ? "\(seconds / 86_400) days" : "\(seconds) s"
    }
}

/// An event refused by its type's rules, naming the field (as a JSON pointer) and why.
package struct EventValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    package var field: String
    package var reason: String

    package init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    package var description: String { "\(field.isEmpty ? "/" : field): \(reason)" }
}

/// Small checks that mirror JSON Schema keywords, each naming its field.
package enum Validate {
    /// ASCII classes for the patterns event types use. (Swift `Regex` costs tens of
    /// microseconds a match; these run on every append and every replayed event.)
    package enum CharacterClass: Sendable {
        case lowerHex, lowerAlpha, lowerAlphanumericDash, digit
        package func contains(_ byte: UInt8) -> Bool {
            switch self {
            case .lowerHex: (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102)
            case .lowerAlpha: byte >= 97 && byte <= 122
            case .lowerAlphanumericDash: (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 122) || byte == 45
            case .digit: byte >= 48 && byte <= 57
            }
        }
    }

    /// `^<prefix><class>{count}$`, e.g. `key_` + 16 lowercase hex.
    package static func prefixed(_ value: String, _ prefix: String, _ characters: CharacterClass, count: Int,
                                field: String, _ what: String) throws {
        var utf8 = Substring(value).utf8
        guard utf8.starts(with: prefix.utf8) else { throw EventValidationError(field: field, "must be \(what)") }
        utf8 = utf8.dropFirst(prefix.utf8.count)
        guard utf8.count == count, utf8.allSatisfy(characters.contains) else {
            throw EventValidationError(field: field, "must be \(what)")
        }
    }

    /// `^<left>+<separator><right>+$` (or exactly `rightCount` on the right), e.g. `read:mobile`.
    package static func pair(_ value: String, _ left: CharacterClass, _ separator: UInt8, _ right: CharacterClass,
                            rightCount: Int? = nil, field: String, _ what: String) throws {
        let bytes = Array(value.utf8)
        guard let split = bytes.firstIndex(of: separator), split > 0, split < bytes.count - 1,
              bytes[..<split].allSatisfy(left.contains), bytes[(split + 1)...].allSatisfy(right.contains),
              rightCount.map({ bytes.count - split - 1 == $0 }) ?? true else {
            throw EventValidationError(field: field, "must be \(what)")
        }
    }

    /// True while an append checks a new event: text is then measured in Unicode scalars, as
    /// JSON Schema's `maxLength` counts. Stored events are measured as they were when written
    /// (in characters, never more than scalars), so a log written before this rule still folds.
    @TaskLocal package static var measuresScalars = false

    package static func length(_ value: String, _ range: ClosedRange<Int>, field: String) throws {
        // Neither characters nor scalars outnumber UTF-8 bytes, and a text of one byte or more has
        // one or more of each: with the byte count in a range from 0 or 1, both counts are in it,
        // and nothing needs walking (most text is short ASCII; the walk was 1.5 % of a replay).
        let bytes = value.utf8.count
        if range.lowerBound <= 1, range.contains(bytes) { return }
        guard range.contains(measuresScalars ? value.unicodeScalars.count : value.count) else {
            throw EventValidationError(field: field, "must be \(range.lowerBound) to \(range.upperBound) characters")
        }
    }

    package static func count<C: Collection>(_ value: C, _ range: ClosedRange<Int>, field: String) throws {
        guard range.contains(value.count) else {
            throw EventValidationError(field: field, "must have \(range.lowerBound) to \(range.upperBound) items")
        }
    }

    package static func unique<T: Hashable>(_ values: [T], field: String) throws {
        guard Set(values).count == values.count else { throw EventValidationError(field: field, "items must be unique") }
    }

    /// The name of an app or a role (`^[a-z]{2,32}$`): events carry names the platform checks
    /// against the apps a process serves when it records them; a stored event keeps folding after
    /// an app or role it names is gone.
    package static func name(_ value: String, field: String) throws {
        guard (2...32).contains(value.utf8.count), value.utf8.allSatisfy(CharacterClass.lowerAlpha.contains) else {
            throw EventValidationError(field: field, "must be 2 to 32 lowercase letters")
        }
    }

    package static func oneOf(_ value: String, _ allowed: Set<String>, field: String) throws {
        guard allowed.contains(value) else {
            throw EventValidationError(field: field, "must be one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    /// A lowercase UUID as Muster writes ids of people, organisations and sessions
    /// (`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).
    package static func uuid(_ value: String, field: String) throws {
        // Reads the UTF-8 in place: every event's ids pass here, and a copy per call showed in profiles.
        var value = value
        guard value.withUTF8(isUUID) else { throw EventValidationError(field: field, "must be a lowercase UUID") }
    }

    static func isUUID(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count == 36 else { return false }
        for i in 0..<36 {
            let dash = i == 8 || i == 13 || i == 18 || i == 23
            guard dash ? b[i] == UInt8(ascii: "-") : CharacterClass.lowerHex.contains(b[i]) else { return false }
        }
        return true
    }

    /// Standard base64 with padding (`^[A-Za-z0-9+/]+={0,2}$`), `range` characters long.
    package static func base64(_ value: String, _ range: ClosedRange<Int>, field: String) throws {
        let bytes = Array(value.utf8)
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        let isBase64: (UInt8) -> Bool = { b in
            (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 43 || b == 47
        }
        guard range.contains(bytes.count), !body.isEmpty, body.allSatisfy(isBase64), bytes.count - body.count <= 2,
              bytes.dropFirst(body.count).allSatisfy({ $0 == UInt8(ascii: "=") }) else {
            throw EventValidationError(field: field, "must be base64, \(range.lowerBound) to \(range.upperBound) characters")
        }
    }

    /// RFC 3339 date-time in UTC with a `Z`, as Muster writes them (`2026-02-10T19:23:45Z`,
    /// optionally with up to 9 fraction digits): `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$`.
    package static func timestamp(_ value: String, field: String) throws {
        // In place, one pass for the shape and one for the calendar: a synced batch of 500
        // flashcards carries a thousand of these.
        var value = value
        guard value.withUTF8(isUTCTimestamp) else { throw EventValidationError(field: field, "must be an RFC 3339 UTC timestamp") }
    }

    static func isUTCTimestamp(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // After the seconds: nothing, or a dot and 1 to 9 digits; then the `Z`.
        guard b.count == 20 || (22...30).contains(b.count), b[b.count - 1] == UInt8(ascii: "Z") else { return false }
        for i in 0..<(b.count - 1) {
            let byte = b[i]
            switch i {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: guard byte == UInt8(ascii: "T") else { return false }
            case 13, 16: guard byte == UInt8(ascii: ":") else { return false }
            case 19: guard byte == UInt8(ascii: ".") else { return false }
            default: guard CharacterClass.digit.contains(byte) else { return false }
            }
        }
        // The shape alone lets `2026-02-31` through; the calendar must have the day.
        return Timestamp.millis(utf8: b) != nil
    }
}

/// A payload whose every appended value is what its stored text decodes back to. Strings,
/// integers and booleans always are; a floating-point number only as decoding left it (a `Date`,
/// or a double made in code, may not be). A projection in the process that appended such an event
/// folds the value it appended instead of reading the stored bytes back (`AppendedEvents` in
/// MusterLog). Claim it with a test or fuzz target that reads the stored text back to the value.
package protocol StoredExactly: EventPayload {}

extension EventEnvelope {
    /// The event as `EventCatalog.decode` reads it back from the log at `sequence`, for a payload
    /// whose stored text decodes to an equal value (`StoredExactly`) and a type without upcast.
    /// The aggregate id is the envelope's subject (`validate` holds them equal): some types derive it.
    package func recorded(sequence: UInt64, subject: String) -> RecordedEvent {
        RecordedEvent(sequence: sequence, subject: subject, id: id, source: source, time: time, actor: actor,
                      traceparent: traceparent, storedType: Payload.eventType, aggregateID: self.subject, payload: data)
    }
}
