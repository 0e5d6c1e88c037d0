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

/// The stand-ins of APNs, FCM, the sign-in providers, SMS and mail, and payments answer as those
/// services do, for tests and the demo: none of them may be in the program that runs in
/// production. Checked on the built binary's symbols, not on what the package says.
@Suite("The production binary holds no stand-in")
struct ProductionBinaryTests {
    @Test func musterHasNoStandInSymbolsAndTheStandInsProgramDoes() async throws {
        let standIns = ["APNsStandIn", "FCMStandIn", "IdentityStandIn", "SMSStandIn", "PaymentsStandIn", "MusterStandIns"]
        func symbols(_ binary: String) async throws -> String {
            let result = try await Repository.run(["nm", "--defined-only", binary], within: .seconds(120))
            try #require(result.status == 0, "nm \(binary): \(result.error)")
            return result.output
        }
        let muster = try await symbols(KillNineTests.binary)
        #expect(muster.contains("MusterServices"), "nm read the real program")
        for name in standIns { #expect(!muster.contains(name), "\(name) is linked into muster") }
        let standInsProgram = try await symbols(KillNineTests.standIns)
        for name in standIns.dropLast() { #expect(standInsProgram.contains(name), "\(name) is missing from muster-standins") }
    }
}
