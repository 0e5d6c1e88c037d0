/// An id as the field book keys its records, kept outcomes and file index by: a lowercase UUID (every
/// id a device sends, and every person's) as its 128 bits, so a lookup hashes 16 bytes and compares two
/// integers; any other text (an id in an event published from elsewhere) as itself.
///
/// Why: string keys of 36 (and, joined, 110) bytes that share long prefixes made hashing and
/// `memcmp` a fifth of a field push's CPU (issue 40). Each text has one form, so two ids are equal
/// exactly when their texts are.
package struct FieldID: Hashable, Sendable, CustomStringConvertible {
    private enum Storage: Hashable, Sendable {
        case uuid(UInt64, UInt64)
        case text(String)
    }

    private let storage: Storage

    package init(_ text: String) {
        var text = text
        storage = text.withUTF8(Self.bits).map { .uuid($0.0, $0.1) } ?? .text(text)
    }

    package var description: String {
        switch storage {
        case .text(let text): text
        case .uuid(let high, let low): Self.text(high, low)
        }
    }

    /// The 128 bits of a lowercase UUID (`8-4-4-4-12` hex digits), or nil for any other text.
    private static func bits(_ b: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard b.count == 36 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for (i, byte) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            if digits < 16 { words.0 = words.0 << 4 | UInt64(value) } else { words.1 = words.1 << 4 | UInt64(value) }
            digits += 1
        }
        return words
    }

    private static func text(_ high: UInt64, _ low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            var at = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 { out[at] = UInt8(ascii: "-"); at += 1 }
                let word = digit < 16 ? high : low
                let value = UInt8(truncatingIfNeeded: word >> (UInt64(15 - digit % 16) * 4) & 0xf)
                out[at] = value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
                at += 1
            }
            return at
        }
    }
}

extension FieldID: Codable {
    package init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension FieldID: ExpressibleByStringLiteral {
    package init(stringLiteral value: String) { self.init(value) }
}

/// As a dictionary key, an object member named by the id's text (as a `String` key would be).
extension FieldID: CodingKeyRepresentable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package var codingKey: any CodingKey { Key(stringValue: description) }

    package init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }
}
