/// The name and major version of an event: `<app>.<aggregate>.<event>.v<major>`.
///
/// Its subject in the log is `events.<app>.<aggregate>.<aggregateId>.<event>.v<major>`, so filters
/// by app, aggregate or event are NATS wildcards and one aggregate's history is
/// `events.<app>.<aggregate>.<id>.>`.
package struct EventType: Hashable, Sendable, CustomStringConvertible, Comparable {
    package let app: String
    package let aggregate: String
    package let event: String
    package let major: Int
    /// `platform.apikey.issued.v1`; spelled once, since every decoded event compares its `type` with it.
    package let description: String

    package init(app: String, aggregate: String, event: String, major: Int) {
        self.app = app
        self.aggregate = aggregate
        self.event = event
        self.major = major
        description = "\(app).\(aggregate).\(event).v\(major)"
        schemaPath = "schemas/events/\(app)/\(aggregate).\(event).v\(major).json"
    }

    // The name says everything else (its parts hold no dots), so equality and hashing look at it alone.
    package static func == (lhs: EventType, rhs: EventType) -> Bool { lhs.description == rhs.description }
    package func hash(into hasher: inout Hasher) { hasher.combine(description) }
    /// `platform.apikey.issued`, the same across majors.
    package var family: String { "\(app).\(aggregate).\(event)" }

    /// Parses `platform.apikey.issued.v1`.
    package init?(_ name: String) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("v"), let major = Int(parts[3].dropFirst()), major > 0,
              parts[0..<3].allSatisfy(Subject.isToken) else { return nil }
        self.init(app: String(parts[0]), aggregate: String(parts[1]), event: String(parts[2]), major: major)
    }

    /// The subject of this event for one aggregate.
    package func subject(aggregateID: String) -> String {
        "events.\(app).\(aggregate).\(aggregateID).\(event).v\(major)"
    }

    /// Every event of this type, whatever its aggregate: what a NATS permission must allow.
    package var subjectFilter: String { subject(aggregateID: "*") }

    /// Every event of this type's family, whatever its aggregate and major: what a consumer of
    /// one type filters on, so that it is also given a major a newer Muster writes during a
    /// rolling upgrade (and reads it forward, `EventCatalog.decode`).
    package var familyFilter: String { "events.\(app).\(aggregate).*.\(event).*" }

    /// Every event of one aggregate, whatever its type: the optimistic-concurrency filter.
    package func aggregateFilter(aggregateID: String) -> String {
        "events.\(app).\(aggregate).\(aggregateID).>"
    }

    /// Where the JSON Schema of this type lives, relative to the repository root (every stored
    /// envelope's `dataschema`: spelled once, and shared by each envelope made or read).
    package let schemaPath: String

    /// The digest of the rules an event of this type is validated against (its schema file and
    /// the envelope's), as `scripts/schema_digests.py` wrote them; nil for a type without a schema.
    package var validationDigest: String? { SchemaDigests.byPath[schemaPath] }

    package static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.description < rhs.description }
}

/// Subjects of the log.
package enum Subject {
    /// A subject token as Muster allows it: letters, digits, `-` and `_`, at most 128 characters.
    package static func isToken(_ token: Substring) -> Bool {
        // Every allowed character is one UTF-8 byte, so the byte count is the character count.
        !token.isEmpty && token.utf8.count <= 128 && token.utf8.allSatisfy(isTokenByte)
    }

    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45 || byte == 95
    }

    package static func isToken(_ token: String) -> Bool { isToken(Substring(token)) }

    /// Splits `events.<app>.<aggregate>.<id>.<event>.v<major>` into its type and aggregate id.
    package static func parse(_ subject: String) -> (type: EventType, aggregateID: String)? {
        var subject = subject
        return subject.withUTF8 { bytes in
            guard let parts = Parts(bytes) else { return nil }
            func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            return (EventType(app: string(parts.app), aggregate: string(parts.aggregate), event: string(parts.event), major: parts.major),
                    string(parts.aggregateID))
        }
    }

    /// Where the parts of a valid subject lie in its bytes (one pass, nothing allocated: every
    /// stored event's subject is split as it is folded).
    struct Parts {
        var app, aggregate, aggregateID, event, version: Range<Int>
        var major: Int
        /// `<app>.<aggregate>` and `<event>.v<major>`: the type's name is these two around the id.
        var typePrefix: Range<Int> { app.lowerBound..<aggregate.upperBound }
        var typeSuffix: Range<Int> { event.lowerBound..<version.upperBound }

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            var bounds: (Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
            var found = 0
            var start = 0
            for index in 0...bytes.count {
                guard index == bytes.count || bytes[index] == UInt8(ascii: ".") else { continue }
                let range = start..<index
                switch found {
                case 0: bounds.0 = range
                case 1: bounds.1 = range
                case 2: bounds.2 = range
                case 3: bounds.3 = range
                case 4: bounds.4 = range
                case 5: bounds.5 = range
                default: return nil
                }
                found += 1
                start = index + 1
            }
            func isToken(_ range: Range<Int>) -> Bool { !range.isEmpty && range.count <= 128 && bytes[range].allSatisfy(isTokenByte) }
            guard found == 6, UnsafeBufferPointer(rebasing: bytes[bounds.0]).elementsEqual("events".utf8),
                  isToken(bounds.1), isToken(bounds.2), isToken(bounds.3), isToken(bounds.4) else { return nil }
            let version = bounds.5
            guard version.count >= 2, version.count <= 10, bytes[version.lowerBound] == UInt8(ascii: "v") else { return nil }
            var major = 0
            for byte in bytes[(version.lowerBound + 1)..<version.upperBound] {
                guard byte >= 48, byte <= 57 else { return nil }
                major = major * 10 + Int(byte - 48)
            }
            guard major > 0 else { return nil }
            (app, aggregate, aggregateID, event, self.version, self.major) = (bounds.1, bounds.2, bounds.3, bounds.4, version, major)
        }
    }
}
