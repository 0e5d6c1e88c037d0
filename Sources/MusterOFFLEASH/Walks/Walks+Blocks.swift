import Foundation
import MusterEvents
import MusterLog
import MusterRuntime
package import MusterPlatform

extension Walks {
    /// The caller's time off, past and future, in the order taken (a customer has none).
    package func blocks(_ claims: AccessClaims) async -> [OFFLEASHProjection.Block] {
        await runner.read { $0.blocks[claims.personId] ?? [] }
    }

    /// Takes time off for the calling walker: no new booking overlaps it. Appended with the
    /// schedule's last sequence expected, like a booking.
    package func block(_ claims: AccessClaims, reason: String?, start: Int64, end: Int64) async throws -> OFFLEASHProjection.Block {
        try requireRole(claims, .walker, .admin)
        guard start < end else { throw OFFLEASHError(.invalidField("end_time"), "end_time must be after start_time") }
        guard end - start <= 366 * 86_400_000 else { throw OFFLEASHError(.invalidField("end_time"), "a block is at most a year long") }
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty ?? "Break"
        guard reason.count <= 200 else { throw OFFLEASHError(.invalidField("reason"), "reason must be at most 200 characters") }
        let event = WalkerBlocked(blockId: SecureRandom.uuidString(), walkerId: claims.personId, reason: reason,
                                  start: Timestamp.string(millis: start, fraction: false), end: Timestamp.string(millis: end, fraction: false))
        for _ in 0..<8 {
            let expected = await runner.read { $0.scheduleSequence[claims.personId] }
            do {
                let sequence = try await append(event, actor: claims.personId, options: AppendOptions(expected: expected.map { .at($0) } ?? .noEvents))
                _ = await runner.waitUntilApplied(sequence, timeout: Self.settle)
                return OFFLEASHProjection.Block(blockId: event.blockId, reason: reason, start: start, end: end)
            } catch let error as AppendError where error.code == .conflict {
                try await catchUp()
            }
        }
        throw OFFLEASHError(.conflict, "The schedule is busy; try again")
    }
}
