import Foundation
import MusterTesting
import Testing

/// The compiler checks that each file imports what it uses (MemberImportVisibility); this checks
/// that each target declares what its files import, so nothing compiles only because another
/// target happened to build a module.
@Suite("Package hygiene")
struct PackageHygieneTests {
    @Test func everyImportIsDeclaredByItsTarget() async throws {
        let result = try await Repository.run(["python3", "scripts/check_imports.py", Repository.path("")], within: .seconds(120))
        #expect(result.status == 0, "\(result.output)\(result.error)")
    }
}
