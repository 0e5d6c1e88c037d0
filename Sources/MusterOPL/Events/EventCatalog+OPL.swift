package import MusterEvents

extension EventCatalog {
    /// Every Online Picket Line event type.
    package static var opl: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(ActionSubmitted.self)
        #if MUSTER_NEXT_VERSION
        catalog.register(ActionSubmittedV1.self, upcast: ActionSubmitted.init(upcasting:))
        #endif
        catalog.register(ActionChecked.self)
        catalog.register(ActionGeocoded.self)
        catalog.register(ActionApproved.self)
        catalog.register(ActionRejected.self)
        catalog.register(ActionReopened.self)
        catalog.register(ActionEnded.self)
        catalog.register(ActionMerged.self)
        catalog.register(ActionExtended.self)
        catalog.register(SnapshotSubmitted.self)
        catalog.register(SnapshotChecked.self)
        catalog.register(SnapshotApproved.self)
        catalog.register(SnapshotRejected.self)
        catalog.register(DNSStatsReported.self)
        return catalog
    }
}
