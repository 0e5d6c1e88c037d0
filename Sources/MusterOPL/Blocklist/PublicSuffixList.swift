import CPSL

/// The Public Suffix List, through libpsl: which part of a host name its owner registered
/// (`m.facebook.com` → `facebook.com`, `shop.acme.co.uk` → `acme.co.uk`, `acme.github.io` →
/// `acme.github.io`, since `github.io` is a suffix of its own).
///
/// Loaded once per process: the newest of the list compiled into libpsl and the one the
/// `publicsuffix` package keeps in `/usr/share/publicsuffix` (one small file read, at start-up).
/// After that every call is a pure lookup in memory.
package final class PublicSuffixList: Sendable {
    // libpsl's context is read-only once loaded and its lookups are documented thread-safe;
    // `nonisolated(unsafe)` because a C pointer is not Sendable by itself.
    private nonisolated(unsafe) let context: OpaquePointer
    /// Whether `context` was loaded from the file (then it is ours to free) or is libpsl's own.
    private let owned: Bool

    /// The system's list. libpsl carries one of its own, so this fails only with a libpsl built
    /// without one and no `publicsuffix` package: a broken install, stopped at start-up.
    package static func load() -> PublicSuffixList {
        if let latest = psl_latest(nil) { return PublicSuffixList(context: latest, owned: true) }
        guard let builtin = psl_builtin() else {
            preconditionFailure("libpsl has no Public Suffix List: install Debian's publicsuffix package")
        }
        return PublicSuffixList(context: builtin, owned: false)
    }

    private init(context: OpaquePointer, owned: Bool) {
        self.context = context
        self.owned = owned
    }

    deinit {
        if owned { psl_free(context) }
    }

    /// The registrable domain (eTLD+1) of a lowercase ASCII host, or nil when the host is itself
    /// a public suffix (`com`, `co.uk`, `github.io`) or has no dot.
    package func registrableDomain(of host: String) -> String? {
        guard host.contains("."), !host.hasPrefix("."), !host.hasSuffix(".") else { return nil }
        return host.withCString { name in
            // The answer points into `name`: copied out before the buffer goes.
            psl_registrable_domain(context, name).map { String(cString: $0) }
        }
    }
}
