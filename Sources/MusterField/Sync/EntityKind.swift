package import MusterEvents

/// The kinds of record the field app syncs, and the fields a device may write on each. What
/// the server derives (who owns a record, whether a manager approved it, what the geofence check
/// found) is not among them: a device cannot write it.
package enum EntityKind: String, Codable, Sendable, CaseIterable, Comparable {
    case project, timeEntry, expense, photo
    /// A manager's word to a project's crew: synced like the rest, and pushed to those not connected.
    case message

    /// The fields a device writes, each with its rule (a table made once: every mutation is checked against it).
    package var fields: [String: FieldRule] { Self.rules[self] ?? [:] }

    private static let rules = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.makeRules()) })

    private func makeRules() -> [String: FieldRule] {
        switch self {
        case .project:
            ["name": .text(1...200), "address": .text(0...300, nullable: true), "latitude": .latitude, "longitude": .longitude,
             "radiusMeters": .number(10...5_000), "startDate": .date, "endDate": .date.nullable]
        case .timeEntry:
            ["projectId": .uuid, "startTime": .timestamp, "endTime": .timestamp.nullable,
             "startLatitude": .latitude.nullable, "startLongitude": .longitude.nullable, "startAccuracy": .number(0...10_000, nullable: true),
             "endLatitude": .latitude.nullable, "endLongitude": .longitude.nullable, "endAccuracy": .number(0...10_000, nullable: true),
             "startSource": .choice(["manual", "geofence"]), "endSource": .choice(["manual", "geofence"], nullable: true),
             "notes": .text(0...2_000, nullable: true)]
        case .expense:
            ["projectId": .uuid, "amount": .decimal, "currency": .currency, "category": .text(1...50), "date": .date,
             "latitude": .latitude.nullable, "longitude": .longitude.nullable, "receipt": .digest.nullable,
             "notes": .text(0...2_000, nullable: true)]
        case .photo:
            ["projectId": .uuid, "takenAt": .timestamp, "latitude": .latitude.nullable, "longitude": .longitude.nullable,
             "caption": .text(0...500, nullable: true), "digest": .digest]
        case .message:
            ["projectId": .uuid, "body": .text(1...1_000)]
        }
    }

    /// What a new record must carry.
    package var required: [String] {
        switch self {
        case .project: ["name"]
        case .timeEntry: ["projectId", "startTime"]
        case .expense: ["projectId", "amount", "currency", "category", "date"]
        case .photo: ["projectId", "takenAt", "digest"]
        case .message: ["projectId", "body"]
        }
    }

    /// Only managers create and change projects and messages; workers write the rest in their projects.
    package var managersOnly: Bool { self == .project || self == .message }

    package static func < (a: EntityKind, b: EntityKind) -> Bool { a.rawValue < b.rawValue }
}

/// What one field may hold.
package struct FieldRule: Sendable {
    package enum Shape: Sendable {
        case text(ClosedRange<Int>), number(ClosedRange<Double>), latitude, longitude, timestamp, date, uuid
        /// A decimal amount as a string (`"-12.50"`): no binary floating point for money.
        case decimal
        /// An ISO 4217 code (`"USD"`).
        case currency
        /// A SHA-256 in lowercase hex: how the object store addresses a photo or receipt.
        case digest
        case choice(Set<String>)
    }

    package var shape: Shape
    package var allowsNull = false

    /// The same rule, with null allowed (clearing the field).
    package var nullable: FieldRule { FieldRule(shape: shape, allowsNull: true) }

    static func text(_ range: ClosedRange<Int>, nullable: Bool = false) -> FieldRule { FieldRule(shape: .text(range), allowsNull: nullable) }
    static func number(_ range: ClosedRange<Double>, nullable: Bool = false) -> FieldRule { FieldRule(shape: .number(range), allowsNull: nullable) }
    static func choice(_ values: Set<String>, nullable: Bool = false) -> FieldRule { FieldRule(shape: .choice(values), allowsNull: nullable) }
    static let latitude = FieldRule(shape: .latitude), longitude = FieldRule(shape: .longitude)
    static let timestamp = FieldRule(shape: .timestamp), date = FieldRule(shape: .date), uuid = FieldRule(shape: .uuid)
    static let decimal = FieldRule(shape: .decimal), currency = FieldRule(shape: .currency), digest = FieldRule(shape: .digest)

    /// Why `value` breaks the rule, or nil.
    package func problem(with value: JSONValue) -> String? {
        if value == .null { return allowsNull ? nil : "must not be null" }
        if let range = numericRange {
            guard let number = value.number else { return "must be a number" }
            return range.contains(number) ? nil : "must be \(range.lowerBound) to \(range.upperBound)"
        }
        switch (shape, value) {
        case (.text(let range), .string(let s)):
            return range.contains(s.count) ? nil : "must be \(range.lowerBound) to \(range.upperBound) characters"
        case (.timestamp, .string(let s)):
            return (try? Validate.timestamp(s, field: "")) == nil ? "must be an RFC 3339 UTC timestamp" : nil
        case (.date, .string(let s)):
            return s.utf8.count == 10 && Timestamp.millis(day: s) != nil ? nil : "must be a date like 2026-11-25"
        case (.uuid, .string(let s)):
            return (try? Validate.uuid(s, field: "")) == nil ? "must be a lowercase UUID" : nil
        case (.decimal, .string(let s)):
            return Self.isDecimal(s) ? nil : "must be a decimal amount as a string, like \"42.50\""
        case (.currency, .string(let s)):
            return s.utf8.count == 3 && s.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) ? nil : "must be an ISO 4217 code, like USD"
        case (.digest, .string(let s)):
            return s.utf8.count == 64 && s.utf8.allSatisfy(Validate.CharacterClass.lowerHex.contains) ? nil : "must be a SHA-256 in lowercase hex"
        case (.choice(let values), .string(let s)):
            return values.contains(s) ? nil : "must be one of \(values.sorted().joined(separator: ", "))"
        default:
            return "has the wrong type"
        }
    }

    private var numericRange: ClosedRange<Double>? {
        switch shape {
        case .number(let range): range
        case .latitude: -90...90
        case .longitude: -180...180
        default: nil
        }
    }

    /// `-?\d{1,12}(\.\d{1,4})?`
    static func isDecimal(_ s: String) -> Bool {
        var digits = Substring(s).utf8
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigit = Validate.CharacterClass.digit.contains
        guard let whole = parts.first, (1...12).contains(whole.count), whole.allSatisfy(isDigit) else { return false }
        guard parts.count == 2 else { return true }
        return (1...4).contains(parts[1].count) && parts[1].allSatisfy(isDigit)
    }
}

extension JSONValue {
    /// The value as a number, when it is one.
    package var number: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d.isFinite ? d : nil
        default: nil
        }
    }

    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
