import Crypto

/// Random bytes for secrets (tokens, keys, salts, codes), all of them at once from the CSPRNG
/// swift-crypto uses for its keys. A byte at a time through `SystemRandomNumberGenerator`
/// (`UInt8.random(in:using:)`, `generator.next()` as a byte) is a system call per byte: a
/// sign-in's 32-byte refresh token was 32 of them.
package enum SecureRandom {
    package static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }
}
