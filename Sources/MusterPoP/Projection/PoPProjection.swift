import GRDB
import MusterEvents
package import MusterLog
import MusterPlatform

/// Every PoP install's progress and the person each is linked to, in SQLite (it grows with the
/// app's installs: a whole-state snapshot rewritten every few seconds would become the cost).
/// One row per install, per card and per bookmark; each synced change is an upsert that merges
/// exactly as `LearnerProgress.apply` does for one device, so a re-sent change changes nothing.
/// Rows remember the log sequence that last changed them: what a pull since a cursor returns.
package enum PoPProjection: TableProjection {
    package struct State: Codable, Sendable, Equatable {
        package var installs = 0
    }

    package static let name = "pop"
    /// 2: an install linked to someone stays theirs until unlinked (the first link wins).
    package static let version = 2
    package static let filterSubjects = ["events.pop.install.>", PersonForgotten.eventType.familyFilter]
    package static let initialState = State()

    /// Synced batches, most of what the fold reads, validated at append are read straight from
    /// their stored bytes (`Synced`); the rest is decoded.
    package static let storage = ProjectionTables<Self>(create: PoPTables.create, stored: [
        StoredReader(ProgressSynced.eventType, read: Synced.init(storedData:)) { synced, sequence, state, db in
            try fold(synced, sequence: sequence, into: &state, db)
        },
    ]) { event, state, db in
        switch event.payload {
        case let synced as ProgressSynced:
            try fold(Synced(synced), sequence: event.sequence, into: &state, db)
        case let linked as InstallLinked:
            if try PoPTables.addInstall(linked.installId, in: db) { state.installs += 1 }
            // The first link wins: a link to another person of an install that is already linked
            // (two racing appends) changes nothing, on every replay alike.
            if try PoPTables.personId(of: linked.installId, in: db).map({ $0 == linked.personId }) ?? true {
                try PoPTables.link(linked.installId, to: linked.personId, sequence: event.sequence, in: db)
            }
        case let unlinked as InstallUnlinked:
            try PoPTables.link(unlinked.installId, to: nil, sequence: event.sequence, in: db)
        case let forgotten as PersonForgotten:
            for installId in try PoPTables.installs(of: forgotten.personId, in: db) {
                try PoPTables.link(installId, to: nil, sequence: event.sequence, in: db)
            }
        default:
            return
        }
    }

    static func fold(_ synced: Synced, sequence: UInt64, into state: inout State, _ db: Database) throws {
        if try PoPTables.addInstall(synced.installId, in: db) { state.installs += 1 }
        let upserts = try PoPTables.Upserts(db)
        for change in synced.changes {
            try PoPTables.apply(change, install: synced.installId, sequence: sequence, with: upserts)
        }
    }
}
