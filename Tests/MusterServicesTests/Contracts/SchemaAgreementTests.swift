import Foundation
import MusterEvents
import MusterPlatform
import MusterRuntime
import MusterTesting
import Testing

@Suite("Swift event types and JSON Schemas agree")
struct SchemaAgreementTests {
    struct Verdicts: Decodable { var valid: [Bool]; var invalid: [Bool] }

    struct SchemaFile: Decodable {
        var examples: [JSONBlob]?
        var invalid: [JSONBlob]?
        enum CodingKeys: String, CodingKey { case examples, invalid = "x-invalid-examples" }
    }

    /// Any JSON value, re-encoded exactly enough to feed the Swift decoder.
    struct JSONBlob: Decodable {
        let data: Data
        init(from decoder: any Decoder) throws {
            data = try JSONSerialization.data(withJSONObject: try decoder.singleValueContainer().decode(AnyJSON.self).value,
                                              options: [.fragmentsAllowed])
        }
    }

    struct AnyJSON: Decodable {
        let value: Any
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { value = NSNull() }
            else if let b = try? c.decode(Bool.self) { value = b }
            else if let i = try? c.decode(Int.self) { value = i }
            else if let d = try? c.decode(Double.self) { value = d }
            else if let s = try? c.decode(String.self) { value = s }
            else if let a = try? c.decode([AnyJSON].self) { value = a.map(\.value) }
            else { value = try c.decode([String: AnyJSON].self).mapValues(\.value) }
        }
    }

    func schemaFiles() throws -> [(path: String, type: EventType)] {
        let base = Repository.path("schemas/events")
        let enumerator = FileManager.default.enumerator(atPath: base)!
        var found: [(String, EventType)] = []
        while let item = enumerator.nextObject() as? String {
            guard item.hasSuffix(".json"), item.contains("/") else { continue } // envelope.json sits at the top
            let app = item.split(separator: "/")[0]
            let name = item.split(separator: "/")[1].dropLast(".json".count)
            let type = try #require(EventType("\(app).\(name)"), "schema file \(item) is not named <aggregate>.<event>.v<major>.json")
            found.append(("schemas/events/\(item)", type))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The digests an append stamps events with (`Muster-Validated`) follow the schemas: a schema
    /// edited without them would let folds trust events validated under the old rules.
    @Test func validationDigestsMatchTheSchemas() async throws {
        let result = try await Repository.run(["python3", "scripts/schema_digests.py", "--check"])
        #expect(result.status == 0, "Sources/MusterEvents/SchemaDigests.swift is stale: run scripts/schema_digests.py")
        for type in apps.catalog.types { #expect(type.validationDigest != nil, "\(type) has no digest") }
    }

    @Test func everyRegisteredTypeHasASchemaAndEverySchemaAType() throws {
        let catalog = apps.catalog
        let files = try schemaFiles()
        #expect(Set(files.map(\.type)) == Set(catalog.types))
        for type in catalog.types { #expect(files.contains { $0.path == type.schemaPath }) }
    }

    @Test func swiftAndJSONSchemaGiveTheSameVerdictOnEveryExample() async throws {
        let result = try await Repository.run(["python3", "scripts/validate_examples.py", "schemas/events"],
                                        environment: Repository.pythonEnvironment)
        try #require(result.status == 0, "jsonschema reference run failed: \(result.error)")
        let python = try JSONDecoder().decode([String: Verdicts].self, from: Data(result.output.utf8))
        let catalog = apps.catalog
        var checked = 0
        for (path, type) in try schemaFiles() {
            let file = try JSONDecoder().decode(SchemaFile.self, from: Data(contentsOf: URL(fileURLWithPath: Repository.path(path))))
            let reference = try #require(python[path])
            let valid = file.examples ?? []
            let invalid = file.invalid ?? []
            #expect(!valid.isEmpty && !invalid.isEmpty, "\(path) needs valid and invalid examples")
            for (index, example) in valid.enumerated() {
                let swift = Result { try catalog.decodeData(type, from: example.data) }
                #expect(reference.valid[index], "jsonschema refuses valid example \(index) of \(path)")
                #expect((try? swift.get()) != nil, "Swift refuses valid example \(index) of \(path): \(swift)")
                checked += 1
            }
            for (index, example) in invalid.enumerated() {
                #expect(!reference.invalid[index], "jsonschema accepts invalid example \(index) of \(path)")
                #expect((try? catalog.decodeData(type, from: example.data)) == nil, "Swift accepts invalid example \(index) of \(path)")
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    @Test func envelopeExampleDecodesThroughTheCatalog() throws {
        struct Envelope: Decodable { var examples: [JSONBlob] }
        let file = try JSONDecoder().decode(Envelope.self, from: Data(contentsOf: URL(fileURLWithPath: Repository.path("schemas/events/envelope.json"))))
        let event = try apps.catalog.decode(subject: "events.platform.apikey.key_0123456789abcdef.revoked.v2",
                                                     sequence: 7, payload: file.examples[0].data)
        #expect(event.payload(as: APIKeyRevoked.self)?.reason == "leaked in a screenshot")
        #expect(event.actor == "cli")
    }
}
