import MusterRuntime
import Testing

@Suite("SecureRandom: secrets' bytes at once")
struct SecureRandomTests {
    @Test func givesTheCountAskedForAndNeverTheSameTwice() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(-1).isEmpty)
        for count in [1, 8, 16, 24, 32, 33] { #expect(SecureRandom.bytes(count).count == count) }
        let secrets = Set((0..<100).map { _ in SecureRandom.bytes(16) })
        #expect(secrets.count == 100)
        // Every byte value turns up over 4 KiB (a byte stuck at one value would not).
        #expect(Set(SecureRandom.bytes(4096)).count > 200)
    }
}
