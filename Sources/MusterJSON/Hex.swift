/// Lowercase hexadecimal, two digits a byte: digests in ids, ETags and keys. (`String(format:)`
/// went through Foundation's formatter once a byte, a visible share of a sign-in's own work.)
package enum Hex {
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
