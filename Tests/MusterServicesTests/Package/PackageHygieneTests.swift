import Foundation
import MusterTesting
import Testing

/// The compiler checks that each file imports what it uses (MemberImportVisibility); this checks
/// that each target declares what its files import, so nothing compiles only because another
/// target happened to build a module.
@Suite("Package hygiene")
struct PackageHygieneTests {
    @Test func everyImportIsDeclaredByItsTarget() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.path("scripts/check_imports.py"), Repository.path("")]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = await offThread { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
