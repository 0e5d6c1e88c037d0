import CArgon2
import MusterRuntime
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import Synchronization

/// argon2id password hashes (libargon2), computed on threads this hasher owns, never on the event
/// loops or Swift's cooperative pool. Each hash holds `memoryKiB` of memory while it runs, so the
/// threads bound the memory a login flood can take (threads × 19 MiB by default) and `queueLimit`
/// bounds the waiting: past it a hash is refused at once (`PasswordHasher.Busy`), which the routes
/// answer with 503 and `Retry-After`, instead of queueing without end.
///
/// By default one core is left to everything else (`defaultThreads`): with a thread on every core, a
/// flood of sign-ins takes them all, and every other request, fold and the sign-ins' own appends then
/// preempt a hash to run. Measured on 2 cores (`bench/offleash.sh`): a customer's bookings list kept
/// two fifths of its rate during a flood with two threads and over two thirds with one, while the
/// flood's sign-ins went from 67 to 40-43 a second: a flood is served more slowly so that nothing
/// else is. The hash also ran 2-3 % slower beside serving than alone with two threads, as fast with one.
package final class PasswordHasher: Sendable {
    package struct Parameters: Sendable, Equatable {
        /// OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane.
        package var memoryKiB: UInt32 = 19 * 1024
        package var iterations: UInt32 = 2
        package var lanes: UInt32 = 1
        package init() {}
    }

    package struct Busy: Error, Sendable {}

    package let parameters: Parameters
    package let queueLimit: Int
    private let pool: NIOThreadPool
    /// Where the hashes' memory comes from, when the program allocates with jemalloc.
    private let arena: RetainingArena?
    private let waiting = Mutex(0)
    /// A hash of a password nobody has, for verifying when the email is unknown: an unknown email
    /// costs the same as a wrong password.
    private let decoy = Mutex<String?>(nil)

    /// One fewer than the cores, at least one.
    package static var defaultThreads: Int { max(1, System.coreCount - 1) }

    package init(threads: Int? = nil, queueLimit: Int = 64, parameters: Parameters = .init()) {
        self.parameters = parameters
        self.queueLimit = queueLimit
        pool = NIOThreadPool(numberOfThreads: max(1, threads ?? Self.defaultThreads))
        pool.start()
        arena = RetainingArena.make()
    }

    package func shutdown() async {
        try? await pool.shutdownGracefully()
    }

    /// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) of `password`.
    package func hash(_ password: String) async throws -> String {
        let parameters = parameters
        return try await run { try Self.computeHash(password, parameters: parameters) }
    }

    /// True when `password` matches `encoded`; false for a mismatch or a malformed hash.
    package func verify(_ password: String, against encoded: String) async throws -> Bool {
        try await run { Self.computeVerify(password, encoded) }
    }

    /// Spends what a real verification spends, and answers false.
    package func verifyDecoy(_ password: String) async throws -> Bool {
        let known = decoy.withLock { $0 }
        let encoded: String
        if let known {
            encoded = known
        } else {
            let bytes = SecureRandom.bytes(16)
            encoded = try await hash(String(decoding: bytes.map { 65 + $0 % 26 }, as: UTF8.self))
            decoy.withLock { $0 = encoded }
        }
        _ = try await verify(password, against: encoded)
        return false
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = waiting.withLock { count in
            guard count < queueLimit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Busy() }
        defer { waiting.withLock { $0 -= 1 } }
        let arena = arena
        return try await pool.runIfActive {
            arena?.bindCurrentThread()
            Self.nameCurrentThread()
            return try body()
        }
    }

    /// Names the hasher's threads `argon2` (NIO names every pool's threads `TP-#n`): what `top -H`
    /// shows an operator, and how a measurement tells the hashing from the rest of a sign-in.
    /// One cheap system call a hash, which takes tens of milliseconds.
    static func nameCurrentThread() {
        muster_argon2_name_thread()
    }

    static func computeHash(_ password: String, parameters: Parameters) throws -> String {
        let salt = SecureRandom.bytes(16)
        let length = argon2_encodedlen(parameters.iterations, parameters.memoryKiB, parameters.lanes, 16, 32, Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let password = Array(password.utf8)
        let result = argon2id_hash_encoded(parameters.iterations, parameters.memoryKiB, parameters.lanes, password, password.count,
                                           salt, salt.count, 32, &encoded, encoded.count)
        guard result == ARGON2_OK.rawValue else {
            throw PasswordHashError(message: String(cString: argon2_error_message(result)))
        }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func computeVerify(_ password: String, _ encoded: String) -> Bool {
        let password = Array(password.utf8)
        return encoded.withCString { argon2id_verify($0, password, password.count) } == ARGON2_OK.rawValue
    }
}

/// libargon2 refused to hash (out of memory, say).
package struct PasswordHashError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { "argon2: \(message)" }
}

/// A jemalloc arena that keeps the pages freed to it (no decay), for the hasher's threads: each
/// hash allocates and frees `memoryKiB` (19 MiB), and in a shared arena jemalloc's decay handed
/// part of that back to the kernel between hashes, so the next one faulted it in and zeroed it
/// again (about 1,800 page faults a sign-in, 20 % more CPU than the hash, whenever the decay
/// caught up with the hashing; bench/offleash.sh). Here each hasher thread reuses its block: the
/// memory held stays the hasher's bound, threads × `memoryKiB`. The arena is never destroyed:
/// what a hasher thread allocated besides the block (the PHC string it returns) lives on elsewhere.
///
/// Found at run time (`mallctl`), so that a program on the system's malloc (the tests, a fuzzing
/// build) hashes as before.
struct RetainingArena: Sendable {
    private typealias Mallctl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                                                UnsafeMutableRawPointer?, Int) -> Int32
    private let mallctl: Mallctl
    let index: UInt32

    static func make() -> RetainingArena? {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "mallctl") else { return nil }
        let mallctl = unsafeBitCast(symbol, to: Mallctl.self)
        var index: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        guard mallctl("arenas.create", &index, &size, nil, 0) == 0 else { return nil }
        var never: Int = -1 // ssize_t: milliseconds; -1 never decays
        for option in ["dirty_decay_ms", "muzzy_decay_ms"] {
            _ = mallctl("arena.\(index).\(option)", nil, nil, &never, MemoryLayout<Int>.size)
        }
        return RetainingArena(mallctl: mallctl, index: index)
        #else
        return nil
        #endif
    }

    /// Makes the calling thread (a hasher thread) allocate from this arena; cheap enough to ask
    /// before every hash (a name lookup and a store), so no thread-local state is kept.
    func bindCurrentThread() {
        var index = index
        _ = mallctl("thread.arena", nil, nil, &index, MemoryLayout<UInt32>.size)
    }
}
