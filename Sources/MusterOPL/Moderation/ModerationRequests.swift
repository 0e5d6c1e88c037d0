/// What a moderator sends with an approval: the decision's reason and any edits. Absent fields
/// keep the submitted (or previously approved) values.
public struct ApproveEdits: Codable, Sendable, Equatable {
    public struct Employer: Codable, Sendable, Equatable {
        public var name, industry, website: String?
    }

    public struct Action: Codable, Sendable, Equatable {
        public var organization, actionType, location, startDate, description, demands, contactInfo, learnMoreUrl, logoUrl: String?
        public var durationDays: Int?
        public var coordinates: Coordinates?
    }

    public struct Site: Codable, Sendable, Equatable {
        public var type: String?
        public var name: String?
        public var latitude: Double
        public var longitude: Double
        public var notificationRadius: Int?
    }

    public var reason: String?
    public var employer: Employer?
    public var action: Action?
    /// Blocklist entries as typed (`https://www.acme.com/`); stored as `acme.com`. Absent: the
    /// employer's website.
    public var urls: [String]?
    /// The employer's own domains (`acme.com`, `acme.co.uk`): entries under them block whole
    /// hosts in every feed; any other entry is one page, for the browser extension. Absent: the
    /// ones the action has, or its website's domain when the website names a site's root.
    public var ownDomains: [String]?
    /// Picket sites and employer sites. Absent: the sites the action already has.
    public var locations: [Site]?

    public init(reason: String? = nil, employer: Employer? = nil, action: Action? = nil, urls: [String]? = nil, ownDomains: [String]? = nil,
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
public struct DecisionRequest: Codable, Sendable, Equatable {
    public var reason: String?
    public var into: String?
    public var durationDays: Int?
    public init(reason: String? = nil, into: String? = nil, durationDays: Int? = nil) {
        self.reason = reason
        self.into = into
        self.durationDays = durationDays
    }
}

/// Approving a snapshot: what kind of site it becomes.
public struct SnapshotApproval: Codable, Sendable, Equatable {
    public var reason: String?
    public var type: String?
    public var name: String?
    public var notificationRadius: Int?
    public init(reason: String? = nil, type: String? = nil, name: String? = nil, notificationRadius: Int? = nil) {
        self.reason = reason
        self.type = type
        self.name = name
        self.notificationRadius = notificationRadius
    }
}
