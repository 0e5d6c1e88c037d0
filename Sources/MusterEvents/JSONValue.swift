import Foundation
package import MusterJSON

/// Any JSON value, kept as it came: the `data` of an append over NATS before its typed decode, the
/// DLQ copy of an analytics event the collector could not read. Integers stay integers, so a
/// 64-bit id survives the round trip.
package indirect enum JSONValue: Codable, Sendable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        switch try JSONScalar(decoder) {
        case .null?: self = .null
        case .bool(let v)?: self = .bool(v)
        case .integer(let v)?: self = .integer(v)
        case .number(let v)?: self = .number(v)
        case .string(let v)?: self = .string(v)
        case .array?: self = .array(try c.decode([JSONValue].self))
        case .object?: self = .object(try c.decode([String: JSONValue].self))
        case nil: self = try Self(trying: c) // another decoder: each type in turn
        }
    }

    private init(trying c: any SingleValueDecodingContainer) throws {
        if c.decodeNil() { self = .null }
        else if let v = try? c.decode(Bool.self) { self = .bool(v) }
        else if let v = try? c.decode(Int64.self) { self = .integer(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else if let v = try? c.decode(String.self) { self = .string(v) }
        else if let v = try? c.decode([JSONValue].self) { self = .array(v) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let v): try c.encode(v)
        case .integer(let v): try c.encode(v)
        case .number(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }

    /// A scalar as a value; nil for a container (its contents were not read).
    package init?(scalar: JSONScalar) {
        switch scalar {
        case .null: self = .null
        case .bool(let v): self = .bool(v)
        case .integer(let v): self = .integer(v)
        case .number(let v): self = .number(v)
        case .string(let v): self = .string(v)
        case .array, .object: return nil
        }
    }

    /// The value as a scalar; nil for a container.
    package var scalar: JSONScalar? {
        switch self {
        case .null: .null
        case .bool(let v): .bool(v)
        case .integer(let v): .integer(v)
        case .number(let v): .number(v)
        case .string(let v): .string(v)
        case .array, .object: nil
        }
    }

    /// What an encodable value looks like as JSON (nil if it cannot be encoded).
    package init?(encoding value: some Encodable) {
        guard let data = try? JSONEncoder().encode(value), let json = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        self = json
    }

    /// `id` of an object, when it is a string.
    package var id: String? {
        if case .object(let o) = self, case .string(let id)? = o["id"] { return id }
        return nil
    }
}

// Literals, so a fold's tests and fixtures read as the JSON they stand for (`["amount": "42.50", "radius": 100]`).
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}
