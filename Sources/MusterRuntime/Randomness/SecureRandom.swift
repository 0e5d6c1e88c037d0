import Crypto
package import Foundation

/// Random bytes for secrets (tokens, keys, salts, codes), all of them at once from the CSPRNG
/// swift-crypto uses for its keys. A byte at a time through `SystemRandomNumberGenerator`
/// (`UInt8.random(in:using:)`, `generator.next()` as a byte) is a system call per byte: a
/// sign-in's 32-byte refresh token was 32 of them.
package enum SecureRandom {
    package static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// A random (version 4) UUID. Foundation's `UUID()` on Linux opens, reads and closes
    /// `/dev/urandom` for each one: three system calls, a file opened on whatever thread asked
    /// (every sign-in, booking and new record asks).
    package static func uuid() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var value = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &value) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40 // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80 // the RFC 4122 variant
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }

    /// `uuid()` as the lowercase string the log and the contracts carry.
    package static func uuidString() -> String {
        uuid().uuidString.lowercased()
    }
}
