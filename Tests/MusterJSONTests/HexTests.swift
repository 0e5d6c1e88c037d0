import Foundation
import MusterJSON
import Testing

@Suite("Hex: two lowercase digits a byte")
struct HexTests {
    @Test func agreesWithFormattingEachByte() {
        #expect(Hex.lowercase([UInt8]()) == "")
        #expect(Hex.lowercase([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...64)).map { _ in UInt8.random(in: .min ... .max) }
            #expect(Hex.lowercase(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        }
    }

    /// A sequence that is not a collection (a digest's prefix) reads the same as its bytes in an array.
    @Test func aSequenceReadsAsItsBytes() {
        let bytes: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0x01]
        #expect(Hex.lowercase(AnySequence(bytes)) == "deadbeef01")
        #expect(Hex.lowercase(bytes.lazy.map { $0 }) == "deadbeef01")
    }
}
