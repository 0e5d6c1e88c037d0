/// What a moderator sends with an approval: the decision's reason and any edits. Absent fields
/// keep the submitted (or previously approved) values.
package struct ApproveEdits: Codable, Sendable, Equatable {
    package struct Employer: Codable, Sendable, Equatable {
        package var name, industry, website: String?
    }

    package struct Action: Codable, Sendable, Equatable {
        package var organization, actionType, location, startDate, description, demands, contactInfo, learnMoreUrl, logoUrl: String?
        package var durationDays: Int?
        package var coordinates: Coordinates?
    }

    package struct Site: Codable, Sendable, Equatable {
        package var type: String?
        package var name: String?
        package var latitude: Double
        package var longitude: Double
        package var notificationRadius: Int?
    }

    package var reason: String?
    package var employer: Employer?
    package var action: Action?
    /// Blocklist entries as typed (`https://www.acme.com/`); stored as `acme.com`. Absent: the
    /// employer's website.
    package var urls: [String]?
    /// The employer's own domains (`acme.com`, `acme.co.uk`): entries under them block whole
    /// hosts in every feed; any other entry is one page, for the browser extension. Absent: the
    /// ones the action has, or its website's domain when the website names a site's root.
    package var ownDomains: [String]?
    /// Picket sites and employer sites. Absent: the sites the action already has.
    package var locations: [Site]?

    package init(reason: String? = nil, employer: Employer? = nil, action: Action? = nil, urls: [String]? = nil, ownDomains: [String]? = nil,
                locations: [Site]? = nil) {
        self.reason = reason
        self.employer = employer
        self.action = action
        self.urls = urls
        self.ownDomains = ownDomains
        self.locations = locations
    }
}

/// A decision that needs only a reason (reject, end); merge and extend add their one field.
package struct DecisionRequest: Codable, Sendable, Equatable {
    package var reason: String?
    package var into: String?
    package var durationDays: Int?
    package init(reason: String? = nil, into: String? = nil, durationDays: Int? = nil) {
        self.reason = reason
        self.into = into
        self.durationDays = durationDays
    }
}

/// Approving a snapshot: what kind of site it becomes.
package struct SnapshotApproval: Codable, Sendable, Equatable {
    package var reason: String?
    package var type: String?
    package var name: String?
    package var notificationRadius: Int?
    package init(reason: String? = nil, type: String? = nil, name: String? = nil, notificationRadius: Int? = nil) {
        self.reason = reason
        self.type = type
        self.name = name
        self.notificationRadius = notificationRadius
    }
}
