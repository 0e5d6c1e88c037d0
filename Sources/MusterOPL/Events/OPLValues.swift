import MusterEvents

/// The kinds of labor action the clients send. iOS and Android each know a different list; the
/// union of both is valid.
package enum ActionTypes {
    package static let all: Set<String> = ["strike", "lockout", "picket", "boycott", "work_stoppage", "walkout", "slowdown", "other"]
}

/// A point on Earth in degrees.
package struct Coordinates: Codable, Sendable, Equatable, Hashable {
    package var latitude: Double
    package var longitude: Double
    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    func validate(field: String) throws {
        try OPLValidate.latitude(latitude, field: field + "/latitude")
        try OPLValidate.longitude(longitude, field: field + "/longitude")
    }
}

/// Who the action is against, as submitted or as approved.
package struct EmployerDetails: Codable, Sendable, Equatable {
    package var name: String
    package var industry: String?
    package var website: String?
    package init(name: String, industry: String? = nil, website: String? = nil) {
        self.name = name
        self.industry = industry
        self.website = website
    }

    func validate(field: String) throws {
        try Validate.length(name, 1...200, field: field + "/name")
        if let industry { try Validate.length(industry, 1...200, field: field + "/industry") }
        if let website { try Validate.length(website, 1...2048, field: field + "/website") }
    }
}

/// What the action is, as submitted or as approved.
package struct ActionDetails: Codable, Sendable, Equatable {
    package var organization: String
    package var actionType: String
    package var location: String
    /// RFC 3339 UTC; Android's `YYYY-MM-DD` is stored as that day's midnight UTC.
    package var startDate: String
    package var durationDays: Int
    package var description: String
    package var demands: String?
    package var contactInfo: String?
    package var learnMoreUrl: String?
    package var logoUrl: String?
    package var coordinates: Coordinates?

    package init(organization: String, actionType: String, location: String, startDate: String, durationDays: Int,
                description: String, demands: String? = nil, contactInfo: String? = nil, learnMoreUrl: String? = nil,
                logoUrl: String? = nil, coordinates: Coordinates? = nil) {
        self.organization = organization
        self.actionType = actionType
        self.location = location
        self.startDate = startDate
        self.durationDays = durationDays
        self.description = description
        self.demands = demands
        self.contactInfo = contactInfo
        self.learnMoreUrl = learnMoreUrl
        self.logoUrl = logoUrl
        self.coordinates = coordinates
    }

    func validate(field: String) throws {
        try Validate.length(organization, 1...200, field: field + "/organization")
        try Validate.oneOf(actionType, ActionTypes.all, field: field + "/actionType")
        try Validate.length(location, 1...300, field: field + "/location")
        try Validate.timestamp(startDate, field: field + "/startDate")
        try OPLValidate.range(durationDays, 1...3650, field: field + "/durationDays")
        try Validate.length(description, 1...5000, field: field + "/description")
        if let demands { try Validate.length(demands, 1...5000, field: field + "/demands") }
        if let contactInfo { try Validate.length(contactInfo, 1...500, field: field + "/contactInfo") }
        if let learnMoreUrl { try OPLValidate.webURL(learnMoreUrl, field: field + "/learnMoreUrl") }
        if let logoUrl { try OPLValidate.webURL(logoUrl, field: field + "/logoUrl") }
        try coordinates?.validate(field: field + "/coordinates")
    }
}

/// A place tied to an action: a picket line or one of the employer's sites.
package struct ActionSite: Codable, Sendable, Equatable {
    package static let types: Set<String> = ["picket-site", "employer-location"]
    package var locationId: String
    package var type: String
    package var name: String?
    package var latitude: Double
    package var longitude: Double
    /// Metres around the site within which the apps alert.
    package var notificationRadius: Int

    package init(locationId: String, type: String, name: String? = nil, latitude: Double, longitude: Double, notificationRadius: Int) {
        self.locationId = locationId
        self.type = type
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.notificationRadius = notificationRadius
    }

    func validate(field: String) throws {
        try Validate.prefixed(locationId, "loc_", .lowerHex, count: 16, field: field + "/locationId", "loc_ followed by 16 lowercase hex digits")
        try Validate.oneOf(type, Self.types, field: field + "/type")
        if let name { try Validate.length(name, 1...300, field: field + "/name") }
        try OPLValidate.latitude(latitude, field: field + "/latitude")
        try OPLValidate.longitude(longitude, field: field + "/longitude")
        try OPLValidate.range(notificationRadius, 25...50_000, field: field + "/notificationRadius")
    }
}

/// What an automatic check found, for a moderator to weigh.
package struct ModerationFlag: Codable, Sendable, Equatable, Hashable {
    package static let codes: Set<String> = ["duplicate", "website", "url", "rate", "distance", "no-location"]
    package var code: String
    package var detail: String
    /// The other item a `duplicate` flag points at.
    package var relatedId: String?

    package init(code: String, detail: String, relatedId: String? = nil) {
        self.code = code
        self.detail = detail
        self.relatedId = relatedId
    }

    func validate(field: String) throws {
        try Validate.oneOf(code, Self.codes, field: field + "/code")
        try Validate.length(detail, 1...500, field: field + "/detail")
    }
}

/// OPL's own rules beyond the shared ones.
package enum OPLValidate {
    package static func latitude(_ value: Double, field: String) throws {
        guard value.isFinite, (-90...90).contains(value) else { throw EventValidationError(field: field, "must be a latitude from -90 to 90") }
    }

    package static func longitude(_ value: Double, field: String) throws {
        guard value.isFinite, (-180...180).contains(value) else { throw EventValidationError(field: field, "must be a longitude from -180 to 180") }
    }

    package static func range(_ value: Int, _ range: ClosedRange<Int>, field: String) throws {
        guard range.contains(value) else { throw EventValidationError(field: field, "must be from \(range.lowerBound) to \(range.upperBound)") }
    }

    /// `^https?://[^\s]+$`, at most 2048 characters.
    package static func webURL(_ value: String, field: String) throws {
        let lower = value.lowercased()
        let rest = lower.hasPrefix("https://") ? lower.dropFirst(8) : lower.hasPrefix("http://") ? lower.dropFirst(7) : nil
        guard let rest, !rest.isEmpty, value.count <= 2048, !rest.contains(where: \.isWhitespace) else {
            throw EventValidationError(field: field, "must be an http(s) URL")
        }
    }

    /// A blocklist entry: a plain, lowercase `host[/path]`, no scheme and no regex escapes
    /// (`^[a-z0-9][a-z0-9.-]*\.[a-z0-9-]*[a-z0-9](/[!-~]*)?$`).
    package static func hostPath(_ value: String, field: String) throws {
        let bytes = Array(value.utf8)
        let slash = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        let host = bytes[..<slash]
        let path = bytes[slash...]
        func alnum(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 97 && b <= 122) }
        let ok = host.count >= 3 && host.first.map(alnum) == true && host.last.map(alnum) == true && host.contains(UInt8(ascii: "."))
            && host.allSatisfy { alnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            && path.allSatisfy { $0 >= 0x21 && $0 <= 0x7E } && value.count <= 500
        guard ok else { throw EventValidationError(field: field, "must be a plain lowercase host[/path] like acme.com or facebook.com/acme") }
    }

    static func id(_ value: String, _ prefix: String, field: String) throws {
        try Validate.prefixed(value, prefix, .lowerHex, count: 16, field: field, "\(prefix) followed by 16 lowercase hex digits")
    }

    static func flags(_ flags: [ModerationFlag], field: String) throws {
        try Validate.count(flags, 0...16, field: field)
        for (index, flag) in flags.enumerated() { try flag.validate(field: "\(field)/\(index)") }
    }
}
