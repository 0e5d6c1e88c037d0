import ArgumentParser
import Foundation
import MusterCommandLine
import MusterPlatform

extension Bench {
    /// argon2id alone, as a sign-in runs it (the same parameters and pool, its threads): the
    /// baseline a password sign-in over HTTP is held to.
    struct Argon2: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "argon2",
            abstract: "Password verifications per second, on the sign-in's own hasher (prints a number; with --cpu, also the CPU milliseconds each took).")

        @Option(help: "Seconds to run.") var seconds: Double = 10
        @Option(help: "Verifications in flight (a sign-in bench's clients).") var clients: Int = 8
        @Option(help: "Threads hashing (default: the sign-in's, one fewer than the cores, at least one).") var threads: Int?
        @Flag(help: "Also print the process's CPU time per verification, in milliseconds.") var cpu = false

        func run() async throws {
            let hasher = PasswordHasher(threads: threads)
            let encoded = try await hasher.hash("Walkies2026")
            let cpuBefore = Self.cpuMilliseconds()
            let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            let done = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<max(1, clients) {
                    group.addTask {
                        var count = 0
                        while ContinuousClock.now < deadline {
                            guard try await hasher.verify("Walkies2026", against: encoded) else { throw CommandFailure("the hash did not verify") }
                            count += 1
                        }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
            let spent = Self.cpuMilliseconds() - cpuBefore
            await hasher.shutdown()
            let rate = Int((Double(done) / seconds).rounded())
            print(cpu ? String(format: "%d %.2f", rate, spent / Double(max(1, done))) : "\(rate)")
        }

        /// User and system CPU this process spent so far.
        static func cpuMilliseconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
            let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
            return user + system
        }
    }
}
