import Crypto
package import Foundation
package import MusterEvents
package import MusterLog
import MusterJSON

/// Why a sync request was refused, in domain terms; `PoPErrorCode+HTTP` gives the answers.
package typealias PoPError = DomainError<PoPErrorCode>

package enum PoPErrorCode: Sendable, Hashable {
    /// A field breaks its rule; the field as the request names it.
    case invalidField(String)
    /// Linking needs a signed-in person.
    case notSignedIn
    /// Signed in, but not allowed this (an export by someone who is not an organiser).
    case forbidden
    /// What the request names does not exist (an unsubscribe link's subscription).
    case notFound
    /// The install is linked to another person: the first link wins.
    case linkedElsewhere
    /// A read model is still opening or catching up; the same request succeeds in a moment.
    case notReady
}

/// PoP's progress sync: a batch of changes an install made (offline or not) is checked change by
/// change, its times put on the server's clock, and stored as one event; a pull returns what
/// changed since a cursor, merged across the person's installs when the install is linked.
package struct CivicsSync: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<PoPProjection>
    let config: PoPConfig
    static let settle: Duration = .seconds(3)

    package init(log: EventLog, runner: ProjectionRunner<PoPProjection>, config: PoPConfig) {
        self.log = log
        self.runner = runner
        self.config = config
    }

    /// One change as the device sent it: device times, not yet checked.
    package struct Incoming: Sendable {
        package var record: ProgressRecord
        package init(record: ProgressRecord) { self.record = record }
    }

    package enum Outcome: Sendable, Equatable {
        case applied
        case refused(String)
    }

    /// Stores the batch's acceptable changes as one event (a retry of the same changes stores
    /// nothing new, and merging is idempotent anyway); every change gets an outcome.
    package func push(installId: String, org slug: String?, sentAt: String, changes: [ProgressRecord], received: Date) async throws
        -> (outcomes: [Outcome], cursor: UInt64) {
        try Validate.uuid(installId, field: "installId", as: PoPError.self)
        guard let org = config.org(slug) else { throw PoPError(.invalidField("org"), "org names no organisation this server has") }
        guard let clock = EventClock(sentAt: sentAt, receivedMillis: Timestamp.millis(received)) else {
            throw PoPError(.invalidField("sentAt"), "sentAt must be an RFC 3339 date-time, like 2026-11-21T14:00:05Z")
        }
        guard (1...ProgressSynced.maxChanges).contains(changes.count) else {
            throw PoPError(.invalidField("changes"), "changes must have 1 to \(ProgressSynced.maxChanges) items")
        }
        var outcomes: [Outcome] = [], kept: [ProgressRecord] = []
        for (i, record) in changes.enumerated() {
            switch Self.corrected(record, clock: clock, decks: config.decks, studied: org.decks, field: "changes.\(i)") {
            case .success(let record): outcomes.append(.applied); kept.append(record)
            case .failure(let problem): outcomes.append(.refused(problem.description))
            }
        }
        guard !kept.isEmpty else { return (outcomes, 0) }
        let digest = SHA256.hash(data: Data(kept.map(\.mutationId).sorted().joined(separator: ",").utf8))
        let key = "pop-sync:\(installId):" + Hex.lowercase(digest.prefix(16))
        let result = try await log.append(ProgressSynced(installId: installId, org: org.slug, changes: kept),
                                          options: AppendOptions(idempotencyKey: key, actor: "install:\(installId)"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        return (outcomes, result.sequence)
    }

    /// The record with its times on the server's clock, or why it cannot be stored.
    static func corrected(_ record: ProgressRecord, clock: EventClock, decks: Decks, studied: [String], field: String)
        -> Result<ProgressRecord, EventValidationError> {
        var record = record
        record.mutationId = record.mutationId.lowercased()
        func place(_ time: String, _ name: String) throws -> String {
            guard let device = Timestamp.millis(time) else { throw EventValidationError(field: name, "must be an RFC 3339 date-time") }
            if let problem = clock.problem(with: device) { throw EventValidationError(field: name, problem) }
            return Timestamp.string(millis: clock.correct(device))
        }
        do {
            if var card = record.card {
                guard studied.contains(card.deck), decks.contains(deck: card.deck, questionId: card.questionId) else {
                    throw EventValidationError(field: field + ".card", "names no question of a deck the organisation studies (\(card.deck.prefix(40)) \(card.questionId))")
                }
                card.changedAt = try place(card.changedAt, field + ".card.changedAt")
                card.lastViewed = try card.lastViewed.map { try place($0, field + ".card.lastViewed") }
                record.card = card
            }
            if var bookmark = record.bookmark {
                bookmark.bookmarkId = bookmark.bookmarkId.lowercased()
                bookmark.createdAt = try place(bookmark.createdAt, field + ".bookmark.createdAt")
                record.bookmark = bookmark
            }
            if let ids = record.unbookmark?.bookmarkIds { record.unbookmark?.bookmarkIds = ids.map { $0.lowercased() } }
            try record.validate(within: field)
            return .success(record)
        } catch let error as EventValidationError {
            return .failure(error)
        } catch {
            return .failure(EventValidationError(field: field, "\(error)"))
        }
    }

    /// What changed for the install since `cursor` (everything when its view changed since, or
    /// for cursor 0), merged across its person's installs when linked.
    package func pull(installId: String, since cursor: UInt64) async throws -> ProgressPull {
        try Validate.uuid(installId, field: "installId", as: PoPError.self)
        guard let view = try await runner.tables("progress", { try PoPTables.view(of: installId, in: $0) }) else {
            return ProgressPull(cursor: cursor, full: cursor == 0, linked: false)
        }
        let full = cursor == 0 || view.reset > cursor
        var pull = ProgressPull(cursor: cursor, full: full, linked: view.personId != nil)
        for (key, card) in view.progress.cards.sorted(by: { $0.key < $1.key }) where full || (view.cards[key] ?? 0) > cursor {
            pull.cards.append(.init(deck: key.deck, questionId: key.questionId, timesViewed: card.timesViewed,
                                    lastViewed: card.lastViewed.map { Timestamp.string(millis: $0) }, isMarkedKnown: card.isMarkedKnown))
        }
        let live = view.progress.bookmarks
        for (id, changed) in view.bookmarks.sorted(by: { $0.key < $1.key }) where full || changed > cursor {
            if let bookmark = live[id] {
                pull.bookmarks.append(.init(id: id, documentId: bookmark.documentId, sectionId: bookmark.sectionId,
                                            createdAt: Timestamp.string(millis: bookmark.createdAt)))
            } else if !full {
                pull.removedBookmarkIds.append(id)
            }
        }
        pull.cursor = max(cursor, ([view.reset] + Array(view.cards.values) + Array(view.bookmarks.values)).max() ?? 0)
        return pull
    }

    /// Links the install to the person. The first link wins: an install linked to someone else
    /// is refused (`.linkedElsewhere`), and if two people race, the fold keeps the first append
    /// and the loser is told so once its append is folded.
    package func link(installId: String, personId: String) async throws {
        try Validate.uuid(installId, field: "installId", as: PoPError.self)
        let holder = try await runner.tables("progress", { try PoPTables.personId(of: installId, in: $0) })
        if holder == personId { return }
        guard holder == nil else { throw PoPError(.linkedElsewhere, "this install is linked to another account") }
        let result = try await log.append(InstallLinked(installId: installId, personId: personId), options: AppendOptions(actor: "person:\(personId)"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        let after = try await runner.tables("progress", { try PoPTables.personId(of: installId, in: $0) })
        guard after == personId else { throw PoPError(.linkedElsewhere, "this install is linked to another account") }
    }

    /// Unlinks the install; only the person it is linked to may (anyone else: no such link, 404).
    package func unlink(installId: String, personId: String) async throws {
        try Validate.uuid(installId, field: "installId", as: PoPError.self)
        guard try await runner.tables("progress", { try PoPTables.personId(of: installId, in: $0) }) == personId else {
            throw PoPError(.notFound, "no link of this install to your account")
        }
        let result = try await log.append(InstallUnlinked(installId: installId), options: AppendOptions(actor: "person:\(personId)"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
    }
}

/// What a pull answers.
package struct ProgressPull: Codable, Sendable, Equatable {
    package struct Card: Codable, Sendable, Equatable {
        package var deck: String
        package var questionId: Int
        package var timesViewed: Int
        package var lastViewed: String?
        package var isMarkedKnown: Bool
    }

    package struct Bookmark: Codable, Sendable, Equatable {
        package var id: String
        package var documentId: String
        package var sectionId: String?
        package var createdAt: String
    }

    /// Send it back as `since` next time.
    package var cursor: UInt64
    /// True when this is the whole state (first pull, or the install linked or unlinked since):
    /// the device replaces what it has instead of merging.
    package var full: Bool
    package var linked: Bool
    package var cards: [Card] = []
    package var bookmarks: [Bookmark] = []
    package var removedBookmarkIds: [String] = []
}

extension Validate {
    /// A UUID, or PoP's invalid-field error naming `field`.
    static func uuid(_ value: String, field: String, as: PoPError.Type) throws {
        do { try uuid(value, field: field) } catch { throw PoPError(.invalidField(field), "\(field) must be a UUID") }
    }
}
