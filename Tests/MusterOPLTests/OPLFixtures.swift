import Foundation
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterOPL

/// Approved actions written straight to the log, for tests about what the read side shows.
struct SeededAction {
    var id = OPLIDs.random("act_")
    var employer = "Acme Logistics"
    var urls = ["acme-logistics.com", "facebook.com/acmelogistics"]
    var latitude = 44.0805
    var longitude = -103.2310
    var start = Date().addingTimeInterval(-86_400)
    var durationDays = 30
    var actionType = "strike"
    var sites: [ActionSite] = []

    var details: ActionDetails {
        ActionDetails(organization: "Teamsters Local 120", actionType: actionType, location: "Rapid City, SD",
                      startDate: Timestamp.string(start), durationDays: durationDays, description: "Warehouse strike",
                      demands: "End forced overtime", contactInfo: "captain@example.org", learnMoreUrl: "https://example.org/strike",
                      coordinates: Coordinates(latitude: latitude, longitude: longitude))
    }

    /// Appends submitted + approved; returns the last sequence.
    @discardableResult
    func append(to log: EventLog) async throws -> UInt64 {
        let employerDetails = EmployerDetails(name: employer, industry: "Logistics", website: "https://www.\(urls.first ?? "acme.com")")
        _ = try await log.append(ActionSubmitted(actionId: id, employer: employerDetails, action: details, submittedBy: "key_0000000000000001"))
        return try await log.append(ActionApproved(actionId: id, employerId: OPLIDs.employer(named: employer), employer: employerDetails,
                                                   action: details, urls: urls, locations: sites, moderator: "key_00000000000000aa",
                                                   reason: "seeded")).sequence
    }
}

extension TestApp {
    /// Seeds actions and waits until the OPL fold has them.
    func seed(_ actions: [SeededAction]) async throws {
        var last: UInt64 = 0
        for action in actions { last = try await action.append(to: log) }
        try await settled("opl", at: last)
    }
}
