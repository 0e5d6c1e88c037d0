import Foundation

/// Any JSON value, for the DLQ copy of an event the collector could not read (redacted first).
public indirect enum RawJSON: Codable, Sendable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([RawJSON]), object([String: RawJSON])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let v = try? c.decode(Bool.self) { self = .bool(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else if let v = try? c.decode(String.self) { self = .string(v) }
        else if let v = try? c.decode([RawJSON].self) { self = .array(v) }
        else { self = .object(try c.decode([String: RawJSON].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let v): try c.encode(v)
        case .number(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }

    /// What a decoded value looks like as JSON (nil if it cannot be encoded).
    init?(encoding value: some Encodable) {
        guard let data = try? JSONEncoder().encode(value), let raw = try? JSONDecoder().decode(RawJSON.self, from: data) else { return nil }
        self = raw
    }

    /// Every string, keys included, through the redactor.
    public func redacted(by redactor: Redactor) -> RawJSON {
        switch self {
        case .string(let s): .string(redactor.redact(s))
        case .array(let a): .array(a.map { $0.redacted(by: redactor) })
        case .object(let o): .object(Dictionary(o.map { (redactor.redact($0.key), $0.value.redacted(by: redactor)) }, uniquingKeysWith: { a, _ in a }))
        default: self
        }
    }

    /// `id` of an object, when it is a string.
    public var id: String? {
        if case .object(let o) = self, case .string(let id)? = o["id"] { return id }
        return nil
    }
}
