/// Which scopes an API key of each app may carry: an app's own scopes (`MusterApp.scopes`) only
/// on its own keys, and the scopes of shared services (analytics, pushes, devices:
/// `MusterApp.sharedScopes`) on any app's. `muster keys issue` and `import` refuse any other, and a
/// stored key's scopes are narrowed to these on every request, so a key issued before a rule
/// changed opens no more than the rule allows.
package struct KeyScopes: Sendable, Equatable {
    package let own: [String: Set<String>]
    package let shared: Set<String>

    package init(own: [String: Set<String>], shared: Set<String>) {
        self.own = own
        self.shared = shared
    }

    /// What a key of `app` may carry.
    package func allowed(forKeyOf app: String) -> Set<String> {
        own[app, default: []].union(shared)
    }
}
