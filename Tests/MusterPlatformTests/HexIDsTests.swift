import MusterPlatform
import Testing

/// Derived ids name things in the log (a notification's key, a push's decision): the same parts
/// give the same id in every release, or a redelivered event would name a new thing.
@Suite("Derived ids")
struct HexIDsTests {
    @Test func aDerivedIDIsTheFirstHalfOfSHA256OverThePartsOnePerLine() {
        #expect(HexIDs.derived("x_", from: "gather:offleash:walk", "42", "push") == "x_0a6214149439187ce05859c53cee5530")
        #expect(HexIDs.derived("y_", from: "é") == "y_4a99557e4033c3539de2eb65472017ca")
    }
}
