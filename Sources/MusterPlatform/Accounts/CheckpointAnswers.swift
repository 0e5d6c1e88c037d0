import Foundation
package import Hummingbird
package import MusterRuntime
package import NIOCore
import Synchronization

/// The answers of `/auth/validate` (every app's) and OFFLEASH's `/contexts`, kept per token for as long as the people fold
/// has not moved: the app asks with the same token on every launch, and the answer can only change
/// with an event.
package final class CheckpointAnswers: Sendable {
    /// What an answer depends on of the token: its session, organisation, role and expiry.
    struct Token: Hashable {
        var sessionId, personId, org, role: String
        var expiresAt: Date

        init(_ person: SignedInPerson) {
            (sessionId, personId, org, role, expiresAt) = (person.sessionId, person.personId, person.org, person.role, person.expiresAt)
        }
    }

    private let kept = Mutex<[Token: (checkpoint: UInt64, bytes: ByteBuffer)]>([:])
    static let limit = 50_000

    package init() {}

    package func answer(_ person: SignedInPerson) -> ByteBuffer? {
        kept.withLock { $0[Token(person)].flatMap { $0.checkpoint == person.checkedAt ? $0.bytes : nil } }
    }

    package func keep(_ bytes: ByteBuffer, for person: SignedInPerson) {
        kept.withLock { kept in
            if kept.count >= Self.limit { kept.removeAll(keepingCapacity: true) }
            kept[Token(person)] = (person.checkedAt, bytes)
        }
    }

    package static func response(_ bytes: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: bytes))
    }
}
