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
    /// `platform.apikey.issued.v1`; spelled once, since every decoded event compares its `type` with it.
    public let description: String

    public init(app: String, aggregate: String, event: String, major: Int) {
        self.app = app
        self.aggregate = aggregate
        self.event = event
        self.major = major
        description = "\(app).\(aggregate).\(event).v\(major)"
    }
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
        // Every allowed character is one UTF-8 byte, so the byte count is the character count.
        !token.isEmpty && token.utf8.count <= 128 && token.utf8.allSatisfy(isTokenByte)
    }

    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45 || byte == 95
    }

    public static func isToken(_ token: String) -> Bool { isToken(Substring(token)) }

    /// Splits `events.<app>.<aggregate>.<id>.<event>.v<major>` into its type and aggregate id.
    public static func parse(_ subject: String) -> (type: EventType, aggregateID: String)? {
        // One pass over the bytes (every stored event's subject is parsed as it is folded).
        var subject = subject
        return subject.withUTF8 { bytes -> (EventType, String)? in
            // Where each of the six parts starts and ends.
            var bounds: [Range<Int>] = []
            bounds.reserveCapacity(6)
            var start = 0
            for index in 0...bytes.count {
                guard index == bytes.count || bytes[index] == UInt8(ascii: ".") else { continue }
                guard bounds.count < 6 else { return nil }
                bounds.append(start..<index)
                start = index + 1
            }
            guard bounds.count == 6 else { return nil }
            func part(_ i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[bounds[i]]) }
            guard part(0).elementsEqual("events".utf8) else { return nil }
            for i in 1...4 {
                let token = part(i)
                guard !token.isEmpty, token.count <= 128, token.allSatisfy(isTokenByte) else { return nil }
            }
            let version = part(5)
            guard version.count >= 2, version.count <= 10, version[0] == UInt8(ascii: "v") else { return nil }
            var major = 0
            for byte in version.dropFirst() {
                guard byte >= 48, byte <= 57 else { return nil }
                major = major * 10 + Int(byte - 48)
            }
            guard major > 0 else { return nil }
            func string(_ i: Int) -> String { String(decoding: part(i), as: UTF8.self) }
            return (EventType(app: string(1), aggregate: string(2), event: string(4), major: major), string(3))
        }
    }
}
