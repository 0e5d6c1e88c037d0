import Foundation
import MusterNATS
import MusterPlatform
import MusterTesting
import Testing

@Suite("PersonalDataVault: crypto-shredding with keys copied in memory")
struct PersonalDataVaultTests {
    static let data = PersonalData(email: "a@example.com", firstName: "Ada", lastName: "Lovelace", phone: nil, passwordHash: "x")

    /// Two processes, each with its copy of the keys: what one seals the other opens; what one
    /// forgets is unreadable there at once and in the other as soon as the purge is delivered.
    @Test func aKeyForgottenInOneProcessIsGoneFromEveryCopy() async throws {
        try await withNATS { nats, _ in
            let js = JetStream(nats)
            let mirrorA = KeyValueMirror(js, bucket: PersonalDataVault.bucketName, erasable: true, checkEvery: .milliseconds(200))
            let mirrorB = KeyValueMirror(js, bucket: PersonalDataVault.bucketName, erasable: true, checkEvery: .milliseconds(200))
            let a = PersonalDataVault(jetStream: js, mirror: mirrorA)
            let b = PersonalDataVault(jetStream: js, mirror: mirrorB)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await mirrorA.run() }
                group.addTask { try await mirrorB.run() }
                let sealed = try await a.seal(Self.data, for: "p1")
                #expect(try await b.open(sealed, for: "p1") == Self.data, "read from the server before the copy has it")
                try await eventually("both copies hold the key", timeout: .seconds(10)) {
                    mirrorA.value("p1") != nil && mirrorB.value("p1") != nil
                }
                #expect(try await a.open(sealed, for: "p1") == Self.data)
                #expect(try await b.open(sealed, for: "p1") == Self.data)

                try await a.forget("p1")
                #expect(try await a.open(sealed, for: "p1") == nil, "gone from the forgetting process at once")
                try await eventually("gone from the other copy", timeout: .seconds(5)) { mirrorB.value("p1") == nil }
                #expect(try await b.open(sealed, for: "p1") == nil)
                await #expect(throws: PersonalDataVault.VaultError.self) { try await b.seal(Self.data, for: "p1") }
                group.cancelAll()
            }
        }
    }
}
