package import MusterEvents

extension EventCatalog {
    /// Every analytics, crash and alert event type.
    package static var analytics: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(ScreenViewed.self)
        catalog.register(ScreenLoaded.self)
        catalog.register(APICalled.self)
        catalog.register(FunnelReached.self)
        catalog.register(CustomTracked.self)
        catalog.register(CrashRecorded.self)
        catalog.register(AlertRaised.self)
        catalog.register(AlertResolved.self)
        return catalog
    }
}
