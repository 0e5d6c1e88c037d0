import MusterEvents
package import MusterJSON

// A submitted action is OPL's hottest write, its biggest event, and what the moderation and
// mobile-data folds read first: it is read from and written to the stored form by hand, members
// in their stored (sorted) order. CodecAgreementTests holds both ways equal to the Codable
// conformance (and the bytes to Foundation's) on random payloads.

extension ActionSubmitted: StoredFieldsDecodable {
    package init(storedFields fields: JSONFields) throws {
        let action = try ActionDetails(storedFields: fields.required(fields.object("action"), "action"))
        let (actionId, channel) = (try fields.required(fields.string("actionId"), "actionId"), try fields.required(fields.string("channel"), "channel"))
        let employer = try EmployerDetails(storedFields: fields.required(fields.object("employer"), "employer"))
        self.init(actionId: actionId, employer: employer, action: action,
                  submittedBy: try fields.required(fields.string("submittedBy"), "submittedBy"), channel: channel)
        #if MUSTER_NEXT_VERSION
        language = try fields.required(fields.string("language"), "language")
        #endif
    }
}

extension ActionSubmitted: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.object("action") { try action.encodeMembers(&$0) }
        try object.string("actionId", actionId)
        try object.string("channel", channel)
        try object.object("employer") { try employer.encodeMembers(&$0) }
        #if MUSTER_NEXT_VERSION
        try object.string("language", language)
        #endif
        try object.string("submittedBy", submittedBy)
    }
}

extension ActionDetails {
    init(storedFields fields: JSONFields) throws {
        let (actionType, contactInfo) = (try fields.required(fields.string("actionType"), "actionType"), try fields.string("contactInfo"))
        let coordinates = try fields.object("coordinates").map { point in
            Coordinates(latitude: try point.required(point.double("latitude"), "latitude"),
                        longitude: try point.required(point.double("longitude"), "longitude"))
        }
        let (demands, description) = (try fields.string("demands"), try fields.required(fields.string("description"), "description"))
        let (durationDays, learnMoreUrl) = (try fields.required(fields.int("durationDays"), "durationDays"), try fields.string("learnMoreUrl"))
        let (location, logoUrl) = (try fields.required(fields.string("location"), "location"), try fields.string("logoUrl"))
        self.init(organization: try fields.required(fields.string("organization"), "organization"), actionType: actionType,
                  location: location, startDate: try fields.required(fields.string("startDate"), "startDate"),
                  durationDays: durationDays, description: description, demands: demands, contactInfo: contactInfo,
                  learnMoreUrl: learnMoreUrl, logoUrl: logoUrl, coordinates: coordinates)
    }

    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("actionType", actionType)
        try object.string("contactInfo", contactInfo)
        if let coordinates {
            try object.object("coordinates") { point in
                try point.double("latitude", coordinates.latitude)
                try point.double("longitude", coordinates.longitude)
            }
        }
        try object.string("demands", demands)
        try object.string("description", description)
        try object.int("durationDays", durationDays)
        try object.string("learnMoreUrl", learnMoreUrl)
        try object.string("location", location)
        try object.string("logoUrl", logoUrl)
        try object.string("organization", organization)
        try object.string("startDate", startDate)
    }
}

extension EmployerDetails {
    init(storedFields fields: JSONFields) throws {
        let industry = try fields.string("industry")
        self.init(name: try fields.required(fields.string("name"), "name"), industry: industry, website: try fields.string("website"))
    }

    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("industry", industry)
        try object.string("name", name)
        try object.string("website", website)
    }
}
