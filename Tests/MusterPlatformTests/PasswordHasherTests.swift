import MusterPlatform
import Testing

@Suite("argon2id passwords on a bounded pool")
struct PasswordHasherTests {
    @Test func hashesWithOWASPParametersAndVerifies() async throws {
        let hasher = PasswordHasher(threads: 1)
        let encoded = try await hasher.hash("Walkies2026")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"), "\(encoded)")
        #expect(try await hasher.hash("Walkies2026") != encoded, "a fresh salt each time")
        #expect(try await hasher.verify("Walkies2026", against: encoded))
        #expect(try await !hasher.verify("walkies2026", against: encoded))
        // A malformed stored hash is a mismatch, never a crash.
        for broken in ["", "$argon2id$", "$argon2id$v=19$m=1,t=1,p=1$$", String(encoded.dropLast(5)), "$argon2i$" + encoded.dropFirst(10)] {
            #expect(try await !hasher.verify("Walkies2026", against: broken))
        }
        #expect(try await !hasher.verifyDecoy("Walkies2026"))
        await hasher.shutdown()
    }

    @Test func aFloodPastTheQueueIsRefusedAtOnce() async throws {
        let hasher = PasswordHasher(threads: 1, queueLimit: 2)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<12 {
                group.addTask { (try? await hasher.hash("Password\(index)")) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.contains(true))
        #expect(outcomes.filter { !$0 }.count >= 6, "at most a few wait; the rest are refused: \(outcomes)")
        await hasher.shutdown()
    }

    @Test func theAppsRulesForEmailsAndPasswords() {
        for good in ["rita@example.com", " Rita.R+dogs@mail.example.co.uk ", "a_b%c-d@x-y.io"] {
            #expect(AccountRules.email(good) != nil, "\(good)")
        }
        for bad in ["", "rita", "rita@", "@example.com", "rita@example", "rita@example.c", "rita@exa mple.com", "ri ta@example.com",
                    "rita@@example.com", "rita@example.c0m", "rité@example.com", "rita@.com", "rita@example.com."] {
            #expect(AccountRules.email(bad) == nil, "\(bad)")
        }
        #expect(AccountRules.passwordProblem("Walkies2026") == nil)
        #expect(AccountRules.passwordProblem("Walk1e") != nil)
        #expect(AccountRules.passwordProblem("walkies2026") != nil)
        #expect(AccountRules.passwordProblem("WalkiesWalkies") != nil)
    }
}
