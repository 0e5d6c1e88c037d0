import Foundation
import MusterJSON
import MusterTesting
import Testing

/// JSONTestSuite's parsing cases (Tests/Fixtures/json-test-suite, MIT): `y_` accepted, `n_`
/// refused, `i_` either, never a crash or a hang.
@Suite("JSON conformance (JSONTestSuite)")
struct ConformanceTests {
    static let folder = Repository.path("Tests/Fixtures/json-test-suite/test_parsing")

    static func cases(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    static func accepts(_ name: String) throws -> Result<Void, JSONError> {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
        return bytes.withUnsafeBytes { raw in Result { () throws(JSONError) in try JSONBytesDecoder().validate(raw) } }
    }

    @Test func theCorpusIsThere() {
        #expect(Self.cases("y_").count == 95 && Self.cases("n_").count == 188 && Self.cases("i_").count == 35)
    }

    /// The one deliberate difference: RFC 8259 lets an object name a key twice (y_object_duplicated_key*),
    /// and we refuse it, because which value wins differs between parsers (Foundation keeps the first).
    @Test(arguments: cases("y_"))
    func accepted(_ name: String) throws {
        switch try Self.accepts(name) {
        case .success: break
        case .failure(let error) where error.code == .duplicateKey && name.hasPrefix("y_object_duplicated_key"): break
        case .failure(let error): Issue.record("\(name): \(error)")
        }
    }

    @Test(arguments: cases("n_"))
    func refused(_ name: String) throws {
        if case .success = try Self.accepts(name) { Issue.record("\(name) was accepted") }
    }

    /// What we do with each implementation-defined case: huge numbers are JSON (a type that cannot
    /// hold one refuses it when decoding); text that is not UTF-8 and lone surrogates are refused;
    /// 500 levels of nesting are past the limit.
    @Test(arguments: cases("i_"))
    func eitherWithoutCrashing(_ name: String) throws {
        let result = try Self.accepts(name)
        if name.hasPrefix("i_number") {
            if case .failure(let error) = result { Issue.record("\(name): \(error)") }
        } else if case .success = result {
            Issue.record("\(name) was accepted")
        }
    }
}
