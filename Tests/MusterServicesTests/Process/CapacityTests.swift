import Foundation
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterTesting
import Testing

/// How many bytes an event of each kind costs in the log, measured on a real nats-server: the
/// stream's own count (subject, headers, payload, per-message overhead) and the file store's
/// blocks on disk. The table docs/backup.md shows comes from here (`swift test --filter
/// CapacityTests`; it is written to .build/test-output/capacity.md).
@Suite("Capacity: bytes per event of each kind", .serialized)
struct CapacityTests {
    static let perType = 200

    @Test func everyKindOfEventIsMeasured() async throws {
        try await apps.withTestLog { live in try await measure(live) }
    }

    func measure(_ live: TestLog) async throws {
        let store = live.server.directory.appendingPathComponent("js/jetstream/$G/streams/EVENTS/msgs")
        var rows: [(type: EventType, stream: Double, disk: Double, kept: EventRetention)] = []
        var seeded = 0
        for (type, examples) in try Self.examples() {
            let before = try await live.log.jetStream.streamInfo("EVENTS").state.bytes
            let diskBefore = Self.bytes(in: store)
            let messages = try (0 ..< Self.perType).map { index in
                try live.log.prepare(try live.log.catalog.decodeData(type, from: JSONEncoder().encode(examples[index % examples.count])))
            }
            let results = try await live.log.appendAll(prepared: messages)
            seeded += results.filter { (try? $0.get()) != nil }.count
            let after = try await live.log.jetStream.streamInfo("EVENTS").state.bytes
            rows.append((type, Double(after - before) / Double(Self.perType),
                         Double(Self.bytes(in: store) - diskBefore) / Double(Self.perType), live.log.catalog.retention(of: type)))
        }
        #expect(rows.count >= 90 && seeded == rows.count * Self.perType)
        var table = "| event | bytes in the stream | bytes on disk | kept |\n| --- | ---: | ---: | --- |\n"
        for row in rows.sorted(by: { $0.stream > $1.stream }) {
            table += "| `\(row.type)` | \(Int(row.stream.rounded())) | \(Int(row.disk.rounded())) | \(row.kept) |\n"
        }
        let output = Repository.path(".build/test-output")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try table.write(toFile: output + "/capacity.md", atomically: true, encoding: .utf8)
        print(table)
        #expect(rows.allSatisfy { $0.stream > 100 && $0.stream < 64 * 1024 }, "every event costs something and under 64 KB")
    }

    /// Each event type's valid schema examples (the realistic payloads the schemas carry).
    static func examples() throws -> [(EventType, [JSONValue])] {
        struct SchemaFile: Decodable { var examples: [JSONValue]? }
        let base = Repository.path("schemas/events")
        var found: [(EventType, [JSONValue])] = []
        for app in try FileManager.default.contentsOfDirectory(atPath: base).sorted() where !app.hasSuffix(".json") {
            for file in try FileManager.default.contentsOfDirectory(atPath: "\(base)/\(app)").sorted() where file.hasSuffix(".json") {
                guard let type = EventType("\(app).\(file.dropLast(".json".count))") else { continue }
                let schema = try JSONDecoder().decode(SchemaFile.self, from: Data(contentsOf: URL(fileURLWithPath: "\(base)/\(app)/\(file)")))
                if let examples = schema.examples, !examples.isEmpty { found.append((type, examples)) }
            }
        }
        return found
    }

    /// The bytes of the files in a folder (the file store's message blocks).
    static func bytes(in folder: URL) -> Int {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        return files.reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }
}
