import Foundation
import MusterJSON
import Testing

@Suite("Base64URL: the URL alphabet, no padding")
struct Base64URLTests {
    /// Every length's tail (none, two digits, three) agrees with Foundation's base64 turned into
    /// the URL alphabet, and reads back.
    @Test func agreesWithFoundationAndReadsBack() {
        #expect(Base64URL.encode([UInt8]()) == "")
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
        #expect(Base64URL.encode(Array("fo".utf8)) == "Zm8")
        #expect(Base64URL.encode(Array("foo".utf8)) == "Zm9v")
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        for _ in 0 ..< 300 {
            let bytes = (0 ..< Int.random(in: 0 ... 70)).map { _ in UInt8.random(in: .min ... .max) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == expected)
            #expect(Base64URL.decode(Substring(encoded)) == bytes)
        }
    }

    @Test func refusesWhatIsNotBase64URL() {
        #expect(Base64URL.decode("a") == nil, "one digit is no byte")
        #expect(Base64URL.decode("ab+c") == nil, "the standard alphabet's + is not the URL one's")
        #expect(Base64URL.decode("ab/c") == nil)
        #expect(Base64URL.decode("Zg==") == nil, "no padding")
        #expect(Base64URL.decode("ab c") == nil)
        #expect(Base64URL.decode(Substring(String(repeating: "A", count: 8193))) == nil, "too long to be a token's part")
    }
}
