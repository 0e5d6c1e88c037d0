package import Foundation
import Synchronization

/// Event ids for one log writer without a system call each (`getrandom`, behind `EventID.make`,
/// was about 2 % of the CPU of the threads that append).
///
/// The 64 "random" bits are a bijection of a counter: a seed drawn once from the system's
/// generator plus the count times an odd constant, then SplitMix64's invertible finaliser. So no
/// two ids of one source repeat (before 2^64 of them), and two sources collide no more often than
/// two independent random draws do. The bits are not a secret: nothing uses an event id as one,
/// and an `Idempotency-Key`'s message id (`family:key`) can never equal an `evt_` id.
package final class EventIDSource: Sendable {
    private let seed: UInt64
    private let count = Atomic<UInt64>(0)

    package init() {
        var system = SystemRandomNumberGenerator()
        seed = system.next()
    }

    package func make(now: Date = Date()) -> String {
        let n = count.wrappingAdd(1, ordering: .relaxed).newValue
        return EventID.spell(now: now, random: Self.mix(seed &+ n &* 0x9E37_79B9_7F4A_7C15))
    }

    /// SplitMix64's finaliser: each step (xor with a right shift, times an odd number) can be undone.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
