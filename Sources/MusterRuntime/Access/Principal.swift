/// Who is calling, once authenticated (`docs/security.md`). Every key,
/// token and device is bound to exactly one app.
package enum Principal: Sendable, Equatable {
    /// No credential, or none that held.
    case nobody
    /// An app's API key: `app` and the key's id (its scopes are checked by the route's `AccessRule`).
    case key(app: String, keyId: String)
    /// A person's access token, for `app`, in organisation `org`, with `role`.
    case person(app: String, org: String, personId: String, role: String)
    /// An installation that proved itself with the secret it was given at registration.
    case device(app: String, deviceId: String)

    package var app: String? {
        switch self {
        case .nobody: nil
        case .key(let app, _), .person(let app, _, _, _), .device(let app, _): app
        }
    }
}

/// Who a stored thing belongs to: always an app, and where it has them an organisation, a
/// person, a device. A field left nil is not part of the ownership.
package struct ResourceOwner: Sendable, Hashable {
    package var app: String
    package var org: String?
    package var personId: String?
    package var deviceId: String?

    package init(app: String, org: String? = nil, personId: String? = nil, deviceId: String? = nil) {
        self.app = app
        self.org = org
        self.personId = personId
        self.deviceId = deviceId
    }
}
