/// Something of a service's own that must be in place before it takes traffic (the geocoder's
/// gazetteer): `/ready` is 503 naming it until `notReady` says nil. Asked on every `/ready`, so
/// it reads a flag and never waits.
package struct ReadinessCheck: Sendable {
    package var name: String
    /// Why it is not ready yet, or nil once it is.
    package var notReady: @Sendable () -> String?

    package init(_ name: String, notReady: @escaping @Sendable () -> String?) {
        self.name = name
        self.notReady = notReady
    }
}
