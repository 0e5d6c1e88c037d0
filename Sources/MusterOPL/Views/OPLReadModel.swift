import Crypto
import Foundation
package import Hummingbird
package import MusterLog
import MusterRuntime
import Synchronization
import MusterJSON

/// Serves the OPL views from the projection, with every answer built once per view.
///
/// The hot path is a client sending back the hash it already has: an atomic read of the
/// projection's checkpoint and one dictionary lookup (`cachedAnswer`, used by the pipeline fast
/// path). Answers (bytes and hash) are cached until the fold's `blocklistRevision` moves or the
/// clock passes the view's `validUntil`; events that change nothing shown (a submission, its
/// checks) cost one look at the revision and keep every answer.
package final class OPLReadModel: Sendable {
    package let runner: ProjectionRunner<OPLProjection>
    package let rules: BlocklistRules
    private let state = Mutex<Cached>(Cached())
    static let cacheLimit = 4096

    /// A finished answer: what to send and its content hash.
    package struct Answer: Sendable {
        package let body: ByteBuffer
        package let hash: String
        /// `X-Content-Hash`, `ETag` and `Cache-Control`, made once: a 304 is these and nothing else.
        package let headers: HTTPFields

        init(body: ByteBuffer, hash: String) {
            self.body = body
            self.hash = hash
            headers = [.contentHash: hash, .eTag: "\"\(hash)\"", .cacheControl: "no-cache"]
        }
    }

    struct Cached {
        var view: BlocklistView?
        /// The checkpoint at which `view` was last known to be the fold's.
        var confirmedAt: UInt64 = 0
        var answers: [String: Answer] = [:]

        /// Whether `view` is the one cached (answers belong to one view: same revision, same build).
        func holds(_ view: BlocklistView) -> Bool {
            self.view.map { $0.revision == view.revision && $0.builtAt == view.builtAt } ?? false
        }

        func current(at checkpoint: UInt64) -> BlocklistView? {
            guard let view, confirmedAt == checkpoint, view.isCurrent else { return nil }
            return view
        }
    }

    package init(runner: ProjectionRunner<OPLProjection>, rules: BlocklistRules) {
        self.runner = runner
        self.rules = rules
    }

    /// The current view: kept while the revision stands, rebuilt when it moved or the view expired.
    package func view() async -> BlocklistView {
        if let view = state.withLock({ $0.current(at: runner.currentCheckpoint) }) { return view }
        let (checkpoint, fold) = await runner.current()
        if let view = state.withLock({ cached -> BlocklistView? in
            guard let view = cached.view, view.revision == fold.blocklistRevision, view.isCurrent else { return nil }
            cached.confirmedAt = max(cached.confirmedAt, checkpoint)
            return view
        }) { return view }
        let view = BlocklistView(state: fold, rules: rules)
        state.withLock { cached in
            // Keep a view another request built meanwhile if it is as new as this one.
            if cached.view.map({ $0.revision < view.revision || !$0.isCurrent }) ?? true {
                cached.view = view
                cached.answers = [:]
            }
            cached.confirmedAt = max(cached.confirmedAt, checkpoint)
        }
        return view
    }

    /// The answer for `key` if it is cached for the current checkpoint and clock; never waits.
    package func cachedAnswer(_ key: String) -> Answer? {
        let checkpoint = runner.currentCheckpoint
        return state.withLock { cached in cached.current(at: checkpoint) != nil ? cached.answers[key] : nil }
    }

    /// The answer for `key` in the current view, built by `make` on first use. The hash covers
    /// what `hashed` encodes (the answer without its `generatedAt`).
    package func answer<Body: Encodable, Hashed: Encodable>(
        _ key: String, make: (BlocklistView) -> (body: Body, hashed: Hashed)
    ) async throws -> Answer {
        let view = await view()
        if let hit = state.withLock({ $0.holds(view) ? $0.answers[key] : nil }) { return hit }
        let (body, hashed) = make(view)
        let encoder = JSONResponse.encoder
        let hash = Hex.lowercase(SHA256.hash(data: try encoder.encode(hashed)))
        let answer = Answer(body: ByteBuffer(bytes: try encoder.encode(body)), hash: hash)
        state.withLock { cached in
            guard cached.holds(view) else { return }
            if cached.answers.count >= Self.cacheLimit { cached.answers = [:] }
            cached.answers[key] = answer
        }
        return answer
    }
}
