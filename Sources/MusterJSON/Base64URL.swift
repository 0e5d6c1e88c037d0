import Foundation

/// Base64 with the URL alphabet and no padding, as JWTs write it.
///
/// Written a byte at a time into the string's own storage: Foundation's `replacingOccurrences`,
/// three of which turned standard base64 into this, goes through `NSString` on Linux and cost
/// more than the SHA-256 of a refresh token beside it.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let count = bytes.count
        let length = (count * 4 + 2) / 3 // four digits per three bytes; a last one or two bytes take two or three
        return String(unsafeUninitializedCapacity: length) { out in
            var written = 0
            var iterator = bytes.makeIterator()
            while let first = iterator.next() {
                let second = iterator.next(), third = iterator.next()
                let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
                let digits = second == nil ? 2 : third == nil ? 3 : 4
                for index in 0 ..< digits {
                    out[written] = alphabet[Int(group >> UInt32(18 - 6 * index) & 0x3F)]
                    written += 1
                }
            }
            return written
        }
    }

    package static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count <= 8192 else { return nil }
        // Back to the standard alphabet, padded, in one pass; Foundation then decodes (and refuses) as ever.
        var standard = [UInt8]()
        standard.reserveCapacity((text.utf8.count + 3) / 4 * 4)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil // the standard alphabet's, and padding
            default: standard.append(byte)
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map(Array.init)
    }
}
