import Crypto
import Foundation
import Hummingbird
import MusterLog
import MusterRuntime
import Synchronization

/// Serves the OPL views from the projection, with every answer built once per view.
///
/// The hot path is a client sending back the hash it already has: an atomic read of the
/// projection's checkpoint and one dictionary lookup (`cachedAnswer`, used by the pipeline fast
/// path). Answers (bytes and hash) are cached per query until the projection moves or the clock
/// passes the view's `validUntil`.
public final class OPLReadModel: Sendable {
    public let runner: ProjectionRunner<OPLProjection>
    private let state = Mutex<Cached>(Cached())
    static let cacheLimit = 4096

    /// A finished answer: what to send and its content hash.
    public struct Answer: Sendable {
        public var body: ByteBuffer
        public var hash: String
    }

    struct Cached {
        var view: BlocklistView?
        var answers: [String: Answer] = [:]
    }

    public init(runner: ProjectionRunner<OPLProjection>) { self.runner = runner }

    /// The current view, rebuilt when the projection moved or the view expired.
    public func view() async -> BlocklistView {
        let checkpoint = runner.currentCheckpoint
        if let view = state.withLock({ $0.view }), view.checkpoint == checkpoint, view.isCurrent { return view }
        let current = await runner.current()
        let view = BlocklistView(state: current.state, checkpoint: current.checkpoint)
        state.withLock { cached in
            // Keep a view another request built meanwhile if it is the current one.
            if cached.view.map({ $0.checkpoint != runner.currentCheckpoint || !$0.isCurrent }) ?? true {
                cached.view = view
                cached.answers = [:]
            }
        }
        return view
    }

    /// The answer for `key` if it is cached for the current checkpoint and clock; never waits.
    public func cachedAnswer(_ key: String) -> Answer? {
        let checkpoint = runner.currentCheckpoint
        return state.withLock { cached in
            guard let view = cached.view, view.checkpoint == checkpoint, view.isCurrent else { return nil }
            return cached.answers[key]
        }
    }

    /// The answer for `key` in the current view, built by `make` on first use. The hash covers
    /// what `hashed` encodes (the answer without its `generatedAt`).
    public func answer<Body: Encodable, Hashed: Encodable>(
        _ key: String, make: (BlocklistView) -> (body: Body, hashed: Hashed)
    ) async throws -> Answer {
        let view = await view()
        if let hit = state.withLock({ $0.view?.checkpoint == view.checkpoint ? $0.answers[key] : nil }) { return hit }
        let (body, hashed) = make(view)
        let encoder = JSONResponse.encoder
        let hash = SHA256.hash(data: try encoder.encode(hashed)).map { String(format: "%02x", $0) }.joined()
        let answer = Answer(body: ByteBuffer(bytes: try encoder.encode(body)), hash: hash)
        state.withLock { cached in
            guard cached.view?.checkpoint == view.checkpoint else { return }
            if cached.answers.count >= Self.cacheLimit { cached.answers = [:] }
            cached.answers[key] = answer
        }
        return answer
    }
}
