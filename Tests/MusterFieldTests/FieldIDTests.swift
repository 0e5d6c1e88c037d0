import Foundation
@testable import MusterField
import MusterJSON
import Testing

/// The field book keys outcomes, records and its file index by `FieldID`: a lowercase UUID as 128
/// bits, any other text as itself. Two ids must be equal exactly when their texts are.
@Suite("FieldID: one form per text, and the text back")
struct FieldIDTests {
    @Test(arguments: [
        "0f0f0f0f-0000-4000-8000-000000000003", "ffffffff-ffff-ffff-ffff-ffffffffffff", "00000000-0000-0000-0000-000000000000",
        UUID().uuidString.lowercased(),
        // Not lowercase UUIDs: kept as text.
        UUID().uuidString, "0f0f0f0f-0000-4000-8000-00000000000g", "0f0f0f0f00000-4000-8000-000000000003", "", "ana", "a:b:c", "é",
        "0f0f0f0f-0000-4000-8000-0000000000033", "0f0f0f0f-0000-4000-8000-00000000000",
    ])
    func theTextComesBack(_ text: String) throws {
        let id = FieldID(text)
        #expect(id.description == text)
        #expect(try JSONBytesDecoder().decode([FieldID: Int].self, from: JSONBytesEncoder().encode([id: 1])) == [id: 1])
        #expect(String(decoding: try JSONBytesEncoder().encode([id: 1]), as: UTF8.self) == String(decoding: try JSONBytesEncoder().encode([text: 1]), as: UTF8.self),
                "as a key, an object member named by the text")
    }

    @Test func idsAreEqualExactlyWhenTheirTextsAre() {
        let lower = "0f0f0f0f-0000-4000-8000-0000000000ab"
        #expect(FieldID(lower) == FieldID(String(lower)))
        #expect(FieldID(lower) != FieldID(lower.uppercased()), "an uppercase UUID is another id, as its text is another text")
        #expect(FieldID(lower) != FieldID("0f0f0f0f-0000-4000-8000-0000000000ac"))
        #expect(FieldID(lower) != FieldID("0f0f0f0f-0000-4000-8000-0000000000ab".replacingOccurrences(of: "-", with: "_")))
        #expect(Set([FieldID(lower), FieldID(lower), FieldID("ana")]).count == 2)
    }
}

@Suite("A pushed mutation's ids in lowercase")
struct FieldIDLowercaseTests {
    /// An iOS device writes UUIDs in capitals; the server stores every id in lowercase, and a
    /// lowercase one is kept as it is.
    @Test func idsAreLowercasedOnlyWhenTheyHaveCapitals() {
        let upper = "6F1C2B1E-2D4A-4B5E-9A3C-0D1E2F3A4B5C"
        #expect(FieldSync.lowercased(upper) == upper.lowercased())
        #expect(FieldSync.lowercased(upper.lowercased()) == upper.lowercased())
        for text in ["", "abc-123", "MiXeD", "ÉCOLE", "école", "Straße", "İ"] {
            #expect(FieldSync.lowercased(text) == text.lowercased(), "\(text)")
        }
    }
}
