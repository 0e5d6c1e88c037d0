package import HTTPTypes

/// One plain HTTP/1.1 GET head read straight from the bytes of one socket read, for the fast path
/// ahead of the HTTP decoder. It accepts only the simplest form, and nothing it could read
/// differently from the decoder: the read must hold exactly one head and nothing after it, every
/// byte must be printable ASCII where the grammar allows text, every line must end in CRLF, and no
/// field may frame a body or change the connection (Content-Length, Transfer-Encoding,
/// Connection, Upgrade, Expect). Anything else is nil, and the bytes go to the full decoder.
package struct PlainGetHead: Sendable {
    /// The request target as sent: origin form, `/` first.
    package var target: String
    /// The Host field's value, if sent (HTTPTypes keeps it as the authority, not a field).
    package var host: String?
    package var fields: HTTPFields

    /// Larger heads go to the decoder: the apps' polls are a few hundred bytes.
    package static let maxBytes = 8_192
    static let maxFields = 64
    /// Fields that frame a body or change the connection (a switch: hashing each name for a Set cost more).
    static func refuses(_ canonicalName: String) -> Bool {
        switch canonicalName {
        case "content-length", "transfer-encoding", "connection", "upgrade", "expect": true
        default: false
        }
    }

    package init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.maxBytes, bytes.count >= 18 else { return nil }
        var reader = Reader(bytes: bytes)
        guard reader.skip("GET "), let target = reader.token(until: UInt8(ascii: " "), allowed: Reader.isTargetByte),
              target.first == UInt8(ascii: "/"), reader.skip(" HTTP/1.1\r\n") else { return nil }
        self.target = String(decoding: target, as: UTF8.self)
        host = nil
        fields = HTTPFields()
        while !reader.skip("\r\n") {
            guard fields.count < Self.maxFields,
                  let name = reader.token(until: UInt8(ascii: ":"), allowed: Reader.isTokenByte), reader.skip(":"),
                  let raw = reader.token(until: UInt8(ascii: "\r"), allowed: Reader.isValueByte, emptyAllowed: true), reader.skip("\r\n")
            else { return nil }
            guard let fieldName = HTTPField.Name(String(decoding: name, as: UTF8.self)),
                  !Self.refuses(fieldName.canonicalName) else { return nil }
            let value = String(decoding: Reader.trimmed(raw), as: UTF8.self)
            if fieldName.canonicalName == "host" {
                guard host == nil else { return nil } // two Hosts: the decoder's business
                host = value
            } else {
                fields.append(HTTPField(name: fieldName, value: value))
            }
        }
        guard reader.atEnd else { return nil } // a second request, or a body, in the same read
    }

    /// The request as HTTPTypes would give it to a route.
    package var request: HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: host, path: target, headerFields: fields)
    }
}

extension PlainGetHead {
    /// A cursor over the read; every step checks its bounds and returns nil or false at the end.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        var atEnd: Bool { at == bytes.count }

        mutating func skip(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - at >= count else { return false }
            let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
            guard bytes[at..<(at + count)].elementsEqual(expected) else { return false }
            at += count
            return true
        }

        /// The bytes up to (not including) `end`, each one `allowed`; nil if another byte comes first.
        mutating func token(until end: UInt8, allowed: (UInt8) -> Bool, emptyAllowed: Bool = false) -> Slice<UnsafeRawBufferPointer>? {
            let start = at
            while at < bytes.count {
                let byte = bytes[at]
                if byte == end { return (at > start || emptyAllowed) ? bytes[start..<at] : nil }
                guard allowed(byte) else { return nil }
                at += 1
            }
            return nil
        }

        static func trimmed(_ value: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
            var lower = value.startIndex, upper = value.endIndex
            while lower < upper, isWhitespace(value[lower]) { lower += 1 }
            while upper > lower, isWhitespace(value[upper - 1]) { upper -= 1 }
            return value[lower..<upper]
        }

        static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        /// Visible ASCII: what an origin-form target may hold once percent-encoded.
        static func isTargetByte(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
        /// Printable ASCII and tab; no obs-text, no control bytes.
        static func isValueByte(_ byte: UInt8) -> Bool { (byte >= 0x20 && byte < 0x7F) || byte == 0x09 }
        /// RFC 9110's tchar.
        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
                 UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
            default: false
            }
        }
    }
}
