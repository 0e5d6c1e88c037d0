package import MusterEvents

/// `opl.snapshot.submitted.v1`: a person sent the GPS position of a picket for an action.
package struct SnapshotSubmitted: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "snapshot", event: "submitted", major: 1)
    package var snapshotId: String
    package var actionId: String
    package var latitude: Double
    package var longitude: Double
    package var address: String?
    package var notes: String?
    package var submittedBy: String

    package init(snapshotId: String, actionId: String, latitude: Double, longitude: Double, address: String?, notes: String?,
                submittedBy: String) {
        self.snapshotId = snapshotId
        self.actionId = actionId
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.notes = notes
        self.submittedBy = submittedBy
    }

    package var aggregateID: String { snapshotId }

    package func validate() throws {
        try OPLValidate.id(snapshotId, "snp_", field: "/snapshotId")
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try OPLValidate.latitude(latitude, field: "/latitude")
        try OPLValidate.longitude(longitude, field: "/longitude")
        if let address { try Validate.length(address, 1...500, field: "/address") }
        if let notes { try Validate.length(notes, 1...2000, field: "/notes") }
        try Validate.length(submittedBy, 1...100, field: "/submittedBy")
    }
}

/// `opl.snapshot.checked.v1`: the automatic checks ran on a snapshot.
package struct SnapshotChecked: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "snapshot", event: "checked", major: 1)
    package var snapshotId: String
    package var flags: [ModerationFlag]
    package init(snapshotId: String, flags: [ModerationFlag]) {
        self.snapshotId = snapshotId
        self.flags = flags
    }
    package var aggregateID: String { snapshotId }
    package func validate() throws {
        try OPLValidate.id(snapshotId, "snp_", field: "/snapshotId")
        try OPLValidate.flags(flags, field: "/flags")
    }
}

/// `opl.snapshot.approved.v1`: the snapshot becomes one of its action's sites.
package struct SnapshotApproved: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "snapshot", event: "approved", major: 1)
    package var snapshotId: String
    package var actionId: String
    package var site: ActionSite
    package var moderator: String
    package var reason: String
    package init(snapshotId: String, actionId: String, site: ActionSite, moderator: String, reason: String) {
        self.snapshotId = snapshotId
        self.actionId = actionId
        self.site = site
        self.moderator = moderator
        self.reason = reason
    }
    package var aggregateID: String { snapshotId }
    package func validate() throws {
        try OPLValidate.id(snapshotId, "snp_", field: "/snapshotId")
        try OPLValidate.id(actionId, "act_", field: "/actionId")
        try site.validate(field: "/site")
        try Validate.length(moderator, 1...100, field: "/moderator")
        try Validate.length(reason, 1...500, field: "/reason")
    }
}

/// `opl.snapshot.rejected.v1`
package struct SnapshotRejected: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "snapshot", event: "rejected", major: 1)
    package var snapshotId: String
    package var moderator: String
    package var reason: String
    package init(snapshotId: String, moderator: String, reason: String) {
        self.snapshotId = snapshotId
        self.moderator = moderator
        self.reason = reason
    }
    package var aggregateID: String { snapshotId }
    package func validate() throws {
        try OPLValidate.id(snapshotId, "snp_", field: "/snapshotId")
        try Validate.length(moderator, 1...100, field: "/moderator")
        try Validate.length(reason, 1...500, field: "/reason")
    }
}
