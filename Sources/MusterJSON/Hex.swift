/// Lowercase hexadecimal, two digits a byte: digests in ids, ETags and keys. (`String(format:)`
/// went through Foundation's formatter once a byte, a visible share of a sign-in's own work.)
package enum Hex {
    package static func lowercase(_ bytes: some Collection<UInt8>) -> String {
        // Written straight into the string's storage: no array to build and decode again
        // (notifications derive several ids an event, each through here).
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var index = 0
            for byte in bytes {
                out[index] = digit(byte >> 4)
                out[index + 1] = digit(byte & 0x0f)
                index += 2
            }
            return index
        }
    }

    /// A digest or any other sequence: its bytes gathered first.
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        lowercase(Array(bytes))
    }

    @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
