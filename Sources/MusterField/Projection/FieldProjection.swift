package import MusterEvents
import MusterLog

/// The field app's records, folded from every push and every manager's decision (`FieldBook`).
/// Kept in memory with a snapshot: a company's shifts are thousands of records, not millions.
package enum FieldProjection: Projection {
    package static let name = "field"
    package static let version = 4 // 2: the digest index (`files`); 3: each company's uploaded files (`storedFiles`); 4: outcomes by id (`FieldID`)
    package static let filterSubjects = ["events.field.>"]
    package static let initialState = FieldBook()

    package static func apply(_ event: RecordedEvent, to state: inout FieldBook) throws {
        guard let time = Timestamp.millis(event.time) else { throw ProjectionRejection("event time \(event.time.prefix(40)) is no timestamp") }
        switch event.payload {
        case let pushed as MutationsPushed: state.apply(pushed, sequence: event.sequence, at: time)
        case let assigned as ProjectAssigned: state.apply(assigned, sequence: event.sequence)
        case let approved as TimeEntryApproved: state.apply(approved, sequence: event.sequence)
        case let rejected as TimeEntryRejected: state.apply(rejected, sequence: event.sequence)
        case let resolved as ConflictResolved: state.apply(resolved, sequence: event.sequence)
        case let configured as CompanyConfigured: state.apply(configured)
        case let stored as FileStored: state.storedFiles[stored.orgId, default: []].insert(stored.digest)
        default: return
        }
        state.forgetOld(now: time)
    }
}
