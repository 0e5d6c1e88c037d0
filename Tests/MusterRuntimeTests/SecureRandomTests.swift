import Foundation
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

    @Test func uuidsAreVersionFourWithTheRFCVariantAndParseBack() throws {
        let ids = (0..<500).map { _ in SecureRandom.uuidString() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id == id.lowercased())
            let parsed = try #require(UUID(uuidString: id))
            #expect(parsed.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
        }
        // The other 122 bits vary: every hex digit turns up in each of the first 8 places.
        for place in 0..<8 { #expect(Set(ids.map { Array($0)[place] }).count == 16) }
    }
}
