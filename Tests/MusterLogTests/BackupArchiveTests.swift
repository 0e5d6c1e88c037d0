import Foundation
import MusterLog
import Testing

/// The backup's tar container: what it writes `tar` reads, and what it reads back is checked.
@Suite("Backup archive")
struct BackupArchiveTests {
    func archive(_ files: [(String, [UInt8])]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, body) in files {
            bytes += try TarHeader(name: name, size: Int64(body.count), modified: 1_700_000_000).encoded()
            bytes += body + [UInt8](repeating: 0, count: Int(BackupArchive.padding(after: Int64(body.count))))
        }
        return bytes + BackupArchive.end
    }

    @Test func whatItWritesTarListsAndItReadsBack() async throws {
        let body = Array("snapshot bytes".utf8)
        let bytes = try archive([("streams/EVENTS.snapshot", body), ("manifest.json", Array("{}".utf8))])
        #expect(bytes.count % 512 == 0)
        let entries = try BackupArchive.entries(in: bytes)
        #expect(entries.map(\.name) == ["streams/EVENTS.snapshot", "manifest.json"])
        #expect(Array(bytes[Int(entries[0].dataOffset) ..< Int(entries[0].dataOffset + entries[0].size)]) == body)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("muster-archive-\(UUID().uuidString).tar")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = ["tf", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && listed == "streams/EVENTS.snapshot\nmanifest.json\n", "\(listed)")
    }

    @Test func sizesPastEightGibibytesUseBase256() throws {
        let size: Int64 = 20 * 1024 * 1024 * 1024
        let block = try TarHeader(name: "streams/BIG.snapshot", size: size, modified: 0).encoded()
        #expect(block[124] == 0x80)
        #expect(try TarHeader.parse(block[...])?.size == size)
    }

    @Test func damagedHeadersAreRefusedWithTheReason() throws {
        var block = try TarHeader(name: "manifest.json", size: 10, modified: 0).encoded()
        block[0] = UInt8(ascii: "M")
        #expect(throws: BackupError.self) { try TarHeader.parse(block[...]) }
        var huge = try TarHeader(name: "x", size: 10, modified: 0).encoded()
        huge.replaceSubrange(124 ..< 136, with: [0xff] + [UInt8](repeating: 0xff, count: 11))
        #expect(throws: BackupError.self) { try TarHeader.parse(huge[...]) }
        // An entry that claims more bytes than the archive has.
        let truncated = Array(try archive([("streams/EVENTS.snapshot", [UInt8](repeating: 7, count: 2000))]).prefix(1024))
        #expect(throws: BackupError.self) { try BackupArchive.entries(in: truncated) }
        #expect(throws: BackupError.self) { try BackupArchive.entries(in: Array("hello".utf8)) }
        #expect(throws: BackupError.self) { try TarHeader(name: String(repeating: "n", count: 101), size: 0, modified: 0).encoded() }
    }

    @Test func aManifestIsCheckedBeforeARestoreTrustsIt() throws {
        func manifest(_ stream: String, file: String? = nil, sha: String = String(repeating: "a", count: 64)) -> String {
            """
            {"format":"muster-backup/1","muster_version":"0.1.0","nats_url":"nats://x","started_at":"t","finished_at":"t",
             "streams":[{"name":"\(stream)","file":"\(file ?? "streams/\(stream).snapshot")","bytes":1,"sha256":"\(sha)",
             "messages":1,"first_seq":1,"last_seq":1,"stored_bytes":1,"config":{"name":"\(stream)"},"state":{}}]}
            """
        }
        #expect(try BackupManifest.decode(Array(manifest("EVENTS").utf8)).streams.first?.name == "EVENTS")
        for bad in [manifest("EVENTS.>"), manifest("../etc"), manifest("EVENTS", file: "../../etc/passwd"), manifest("EVENTS", sha: "xyz"),
                    "{}", "[]", "", manifest("EVENTS").replacingOccurrences(of: "muster-backup/1", with: "muster-backup/9")] {
            #expect(throws: BackupError.self, "\(bad.prefix(60))") { try BackupManifest.decode(Array(bad.utf8)) }
        }
    }
}
