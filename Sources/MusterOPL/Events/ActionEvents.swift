package import MusterEvents

/// `opl.action.submitted.v1`: someone reported a labor action. It waits for moderation.
package struct ActionSubmitted: EventPayload {
    #if MUSTER_NEXT_VERSION
    // The upgrade drill's next version (ActionSubmitted+NextVersion.swift): v2 adds `language`.
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "submitted", major: 2)
    /// The language the report is written in (BCP 47); `und` (undetermined) when nobody said,
    /// as every v1 event reads.
    package var language = "und"
    #else
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "submitted", major: 1)
    #endif
    package static let channels: Set<String> = ["mobile", "moderator", "import"]
    package var actionId: String
    package var employer: EmployerDetails
    package var action: ActionDetails
    /// The key (or moderator) that submitted it.
    package var submittedBy: String
    package var channel: String

    package init(actionId: String, employer: EmployerDetails, action: ActionDetails, submittedBy: String, channel: String = "mobile") {
        self.actionId = actionId
        self.employer = employer
        self.action = action
        self.submittedBy = submittedBy
        self.channel = channel
    }

    package var aggregateID: String { actionId }

    package func validate() throws {
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try employer.validate(field: "/employer")
        try action.validate(field: "/action")
        try Validate.length(submittedBy, 1...100, field: "/submittedBy")
        try Validate.oneOf(channel, Self.channels, field: "/channel")
        #if MUSTER_NEXT_VERSION
        try Validate.length(language, 2...35, field: "/language")
        #endif
    }
}

/// `opl.action.checked.v1`: the automatic checks ran; `flags` is what they found (maybe nothing).
package struct ActionChecked: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "checked", major: 1)
    package var actionId: String
    package var flags: [ModerationFlag]
    package init(actionId: String, flags: [ModerationFlag]) {
        self.actionId = actionId
        self.flags = flags
    }
    package var aggregateID: String { actionId }
    package func validate() throws {
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try OPLValidate.flags(flags, field: "/flags")
    }
}

/// `opl.action.geocoded.v1`: a submission without coordinates was placed from its location text.
package struct ActionGeocoded: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "geocoded", major: 1)
    package var actionId: String
    package var latitude: Double
    package var longitude: Double
    package var displayName: String?
    package var confidence: Double
    package var source: String
    package init(actionId: String, latitude: Double, longitude: Double, displayName: String?, confidence: Double, source: String) {
        self.actionId = actionId
        self.latitude = latitude
        self.longitude = longitude
        self.displayName = displayName
        self.confidence = confidence
        self.source = source
    }
    package var aggregateID: String { actionId }
    package func validate() throws {
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try OPLValidate.latitude(latitude, field: "/latitude")
        try OPLValidate.longitude(longitude, field: "/longitude")
        if let displayName { try Validate.length(displayName, 1...500, field: "/displayName") }
        guard confidence.isFinite, (0...1).contains(confidence) else { throw EventValidationError(field: "/confidence", "must be from 0 to 1") }
        try Validate.length(source, 1...100, field: "/source")
    }
}

/// `opl.action.approved.v1`: a moderator approved the action. It carries the approved record in
/// full (the moderator's edits applied), the blocklist entries and the sites, so the fold needs
/// nothing else.
package struct ActionApproved: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "approved", major: 1)
    package var actionId: String
    package var employerId: String
    package var employer: EmployerDetails
    package var action: ActionDetails
    /// Plain `host[/path][?query]` entries for the blocklists.
    package var urls: [String]
    /// The registrable domains the moderator holds to be the employer's own: entries under them
    /// block whole hosts, every other entry one page. Absent in approvals from before it was
    /// recorded (then the website's domain is the employer's, as `BlocklistRules` reads it).
    package var ownDomains: [String]?
    package var locations: [ActionSite]
    package var moderator: String
    package var reason: String

    package init(actionId: String, employerId: String, employer: EmployerDetails, action: ActionDetails, urls: [String],
                ownDomains: [String]? = nil, locations: [ActionSite], moderator: String, reason: String) {
        self.actionId = actionId
        self.employerId = employerId
        self.employer = employer
        self.action = action
        self.urls = urls
        self.ownDomains = ownDomains
        self.locations = locations
        self.moderator = moderator
        self.reason = reason
    }

    package var aggregateID: String { actionId }

    package func validate() throws {
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try OPLValidate.id(employerId, "emp_", field: "/employerId")
        try employer.validate(field: "/employer")
        try action.validate(field: "/action")
        try Validate.count(urls, 0...100, field: "/urls")
        try Validate.unique(urls, field: "/urls")
        for (index, url) in urls.enumerated() { try OPLValidate.hostPath(url, field: "/urls/\(index)") }
        if let ownDomains {
            try Validate.count(ownDomains, 0...20, field: "/ownDomains")
            try Validate.unique(ownDomains, field: "/ownDomains")
            for (index, domain) in ownDomains.enumerated() {
                try OPLValidate.hostPath(domain, field: "/ownDomains/\(index)")
                guard !domain.contains("/") else { throw EventValidationError(field: "/ownDomains/\(index)", "must be a domain, without a path") }
            }
        }
        try Validate.count(locations, 0...200, field: "/locations")
        for (index, site) in locations.enumerated() { try site.validate(field: "/locations/\(index)") }
        try Validate.length(moderator, 1...100, field: "/moderator")
        try Validate.length(reason, 1...500, field: "/reason")
    }
}

/// A moderator's decision that needs only who and why: reject, end.
package protocol ActionDecision: EventPayload {
    var actionId: String { get }
    var moderator: String { get }
    var reason: String { get }
}

extension ActionDecision {
    package var aggregateID: String { actionId }
    func validateDecision() throws {
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try Validate.length(moderator, 1...100, field: "/moderator")
        try Validate.length(reason, 1...500, field: "/reason")
    }
}

/// `opl.action.rejected.v1`: a moderator refused a submission.
package struct ActionRejected: ActionDecision {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "rejected", major: 1)
    package var actionId: String
    package var moderator: String
    package var reason: String
    package init(actionId: String, moderator: String, reason: String) {
        self.actionId = actionId
        self.moderator = moderator
        self.reason = reason
    }
    package func validate() throws { try validateDecision() }
}

/// `opl.action.reopened.v1`: a moderator took back a rejection; the action waits for a decision
/// again. Its own recorded decision, so an approval can never silently overturn a rejection.
package struct ActionReopened: ActionDecision {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "reopened", major: 1)
    package var actionId: String
    package var moderator: String
    package var reason: String
    package init(actionId: String, moderator: String, reason: String) {
        self.actionId = actionId
        self.moderator = moderator
        self.reason = reason
    }
    package func validate() throws { try validateDecision() }
}

/// `opl.action.ended.v1`: the action is over: a moderator ended it, or its duration ran out
/// (`moderator` is then `system:expiry`).
package struct ActionEnded: ActionDecision {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "ended", major: 1)
    package var actionId: String
    package var moderator: String
    package var reason: String
    package init(actionId: String, moderator: String, reason: String) {
        self.actionId = actionId
        self.moderator = moderator
        self.reason = reason
    }
    package func validate() throws { try validateDecision() }
}

/// `opl.action.merged.v1`: a duplicate folded into another action; it is never shown on its own.
package struct ActionMerged: ActionDecision {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "merged", major: 1)
    package var actionId: String
    package var into: String
    package var moderator: String
    package var reason: String
    package init(actionId: String, into: String, moderator: String, reason: String) {
        self.actionId = actionId
        self.into = into
        self.moderator = moderator
        self.reason = reason
    }
    package func validate() throws {
        try validateDecision()
        try OPLValidate.id(into, "act_", field: "/into")
        guard into != actionId else { throw EventValidationError(field: "/into", "must name another action") }
    }
}

/// `opl.action.extended.v1`: the action goes on longer; `durationDays` is the new total.
package struct ActionExtended: ActionDecision {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "extended", major: 1)
    package var actionId: String
    package var durationDays: Int
    package var moderator: String
    package var reason: String
    package init(actionId: String, durationDays: Int, moderator: String, reason: String) {
        self.actionId = actionId
        self.durationDays = durationDays
        self.moderator = moderator
        self.reason = reason
    }
    package func validate() throws {
        try validateDecision()
        try OPLValidate.range(durationDays, 1...3650, field: "/durationDays")
    }
}
