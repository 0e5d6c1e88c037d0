package import MusterEvents

/// `pop.install.synced.v1`: changes one install made (offline or not) and sent in one batch, with
/// their times already on the server's clock. Made of strings, integers and booleans only
/// (`StoredExactly`): the folds of the process that took the sync fold the value it appended.
package struct ProgressSynced: EventPayload, StoredExactly {
    package static let eventType = EventType(app: "pop", aggregate: "install", event: "synced", major: 1)
    package static let maxChanges = 500

    package var installId: String
    /// The organisation the install belongs to (`PoPConfig.Org.slug`): whose figures it counts in.
    package var org: String
    package var changes: [ProgressRecord]

    package init(installId: String, org: String, changes: [ProgressRecord]) {
        self.installId = installId
        self.org = org
        self.changes = changes
    }

    package var aggregateID: String { installId }

    package func validate() throws {
        try Validate.uuid(installId, field: "/installId")
        try Validate.slug(org, field: "/org")
        try Validate.count(changes, 1...Self.maxChanges, field: "/changes")
        for (i, record) in changes.enumerated() { try record.validate(within: "/changes/\(i)") }
    }
}

/// `pop.install.linked.v1`: the install shares its progress with the person's other installs.
package struct InstallLinked: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "install", event: "linked", major: 1)

    package var installId: String
    package var personId: String

    package init(installId: String, personId: String) {
        self.installId = installId
        self.personId = personId
    }

    package var aggregateID: String { installId }

    package func validate() throws {
        try Validate.uuid(installId, field: "/installId")
        try Validate.uuid(personId, field: "/personId")
    }
}

/// `pop.install.unlinked.v1`: the install keeps its own progress and no longer sees the person's.
package struct InstallUnlinked: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "install", event: "unlinked", major: 1)

    package var installId: String

    package init(installId: String) { self.installId = installId }

    package var aggregateID: String { installId }

    package func validate() throws { try Validate.uuid(installId, field: "/installId") }
}

extension EventCatalog {
    /// PoP's events.
    package static var pop: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(ProgressSynced.self)
        catalog.register(InstallLinked.self)
        catalog.register(InstallUnlinked.self)
        catalog.register(NewsletterSubscribed.self)
        catalog.register(NewsletterUnsubscribed.self)
        catalog.register(NewsletterConfirmed.self)
        catalog.register(CivicEventPublished.self)
        catalog.register(BillTracked.self)
        catalog.register(FollowChanged.self)
        return catalog
    }
}

extension Validate {
    /// An organisation's slug: 1 to 64 lowercase letters, digits and dashes.
    static func slug(_ value: String, field: String) throws {
        try length(value, 1...64, field: field)
        guard value.utf8.allSatisfy(CharacterClass.lowerAlphanumericDash.contains) else {
            throw EventValidationError(field: field, "must be lowercase letters, digits and dashes")
        }
    }
}
