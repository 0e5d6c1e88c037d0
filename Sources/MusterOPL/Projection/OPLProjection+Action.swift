package import Foundation
import MusterEvents
import MusterLog

extension OPLProjection {
    /// A moderator's (or the system's) decision, with who and why.
    package struct Decision: Codable, Sendable, Equatable {
        package var kind: String
        package var moderator: String
        package var reason: String
        package var at: String
    }

    /// One labor action through its life: submitted → approved → ended, or rejected, or merged.
    package struct Action: Codable, Sendable, Equatable {
        package enum Status: String, Codable, Sendable, CaseIterable { case submitted, approved, rejected, merged, ended }

        package var id: String
        package var status: Status
        /// As submitted, kept for the moderator to compare with the approved record.
        package var submittedEmployer: EmployerDetails
        package var submittedAction: ActionDetails
        package var submittedBy: String
        package var submittedAt: String
        package var channel: String
        /// Current record: the submitted one until approval, then the approved one.
        package var employer: EmployerDetails
        package var details: ActionDetails
        package var employerId: String?
        package var urls: [String] = []
        /// The employer's own registrable domains as the approval recorded them (nil: not recorded).
        package var ownDomains: [String]?
        package var locations: [ActionSite] = []
        package var flags: [ModerationFlag] = []
        package var checked = false
        package var geocoded: ActionGeocoded?
        package var mergedInto: String?
        package var endedAt: String?
        package var approvedAt: String?
        package var decisions: [Decision] = []
        package var snapshotIds: [String] = []
        /// Stream sequence of this action's last event: the expected version of the next decision.
        package var sequence: UInt64

        init(submitted e: ActionSubmitted, at time: String, sequence: UInt64) {
            id = e.actionId
            status = .submitted
            submittedEmployer = e.employer
            submittedAction = e.action
            submittedBy = e.submittedBy
            submittedAt = time
            channel = e.channel
            employer = e.employer
            details = e.action
            self.sequence = sequence
        }

        /// Where the action is: its own coordinates, else where geocoding placed it.
        package var coordinates: Coordinates? {
            details.coordinates ?? geocoded.map { Coordinates(latitude: $0.latitude, longitude: $0.longitude) }
        }

        /// Approved or ended actions are what the blocklist views are made of.
        package var showsInBlocklists: Bool { status == .approved || status == .ended }

        package var startDate: Date? { OPLDates.parse(details.startDate) }
        package var endDate: Date? { startDate.map { $0.addingTimeInterval(Double(details.durationDays) * 86_400) } }

        mutating func apply(_ event: RecordedEvent, known: (String) -> Bool) throws {
            func require(_ allowed: Set<Status>, _ what: String) throws {
                guard allowed.contains(status) else { throw ProjectionRejection("cannot \(what) action \(id): it is \(status.rawValue)") }
            }
            func decide(_ kind: String, _ moderator: String, _ reason: String) {
                decisions.append(Decision(kind: kind, moderator: moderator, reason: reason, at: event.time))
            }
            switch event.payload {
            case let e as ActionChecked:
                flags = e.flags
                checked = true
            case let e as ActionGeocoded:
                geocoded = e
            case let e as ActionApproved:
                // The desk no longer approves a rejected action (it must be reopened first), but
                // logs written before that rule hold such approvals: history is folded as it was.
                try require([.submitted, .approved, .rejected], "approve")
                status = .approved
                employerId = e.employerId
                employer = e.employer
                details = e.action
                urls = e.urls
                ownDomains = e.ownDomains
                // Sites added later from approved snapshots stay; the approval's own list replaces the rest.
                let snapshotSites = Set(snapshotIds.map(OPLIDs.siteID(forSnapshot:)))
                let fromSnapshots = locations.filter { site in
                    snapshotSites.contains(site.locationId) && !e.locations.contains { $0.locationId == site.locationId }
                }
                locations = e.locations + fromSnapshots
                approvedAt = approvedAt ?? event.time
                decide("approved", e.moderator, e.reason)
            case let e as ActionRejected:
                try require([.submitted], "reject")
                status = .rejected
                decide("rejected", e.moderator, e.reason)
            case let e as ActionReopened:
                try require([.rejected], "reopen")
                status = .submitted
                decide("reopened", e.moderator, e.reason)
            case let e as ActionMerged:
                try require([.submitted, .approved], "merge")
                guard known(e.into) else { throw ProjectionRejection("cannot merge \(id) into unknown action \(e.into)") }
                status = .merged
                mergedInto = e.into
                decide("merged", e.moderator, e.reason)
            case let e as ActionEnded:
                try require([.approved], "end")
                status = .ended
                endedAt = event.time
                decide("ended", e.moderator, e.reason)
            case let e as ActionExtended:
                try require([.approved, .ended], "extend")
                status = .approved
                endedAt = nil
                details.durationDays = e.durationDays
                decide("extended", e.moderator, e.reason)
            default:
                return
            }
        }
    }

    /// A GPS snapshot waiting for, or past, moderation.
    package struct Snapshot: Codable, Sendable, Equatable {
        package enum Status: String, Codable, Sendable { case submitted, approved, rejected }
        package var id: String
        package var actionId: String
        package var latitude: Double
        package var longitude: Double
        package var address: String?
        package var notes: String?
        package var submittedBy: String
        package var submittedAt: String
        package var status: Status = .submitted
        package var flags: [ModerationFlag] = []
        package var checked = false
        package var decisions: [Decision] = []
        package var sequence: UInt64

        init(submitted e: SnapshotSubmitted, at time: String, sequence: UInt64) {
            id = e.snapshotId
            actionId = e.actionId
            latitude = e.latitude
            longitude = e.longitude
            address = e.address
            notes = e.notes
            submittedBy = e.submittedBy
            submittedAt = time
            self.sequence = sequence
        }
    }
}
