/// The one comparison of caller and owner that every route's "may this caller touch this thing?"
/// goes through. A thing of another owner is answered as absent (404), never as forbidden, so
/// its existence does not leak; a domain turns `false` into its own not-found error.
package enum Access {
    /// The platform's own app: its keys are operators', which act for any app.
    package static let operatorApp = "platform"

    /// Whether any of `principals` (what one request proved: a key, a person, a device) owns a
    /// thing of `owner`:
    /// - the app must be the same, always;
    /// - a person owns what is theirs (its `personId`), or, for a thing of an organisation with
    ///   no person, what is their organisation's;
    /// - a device owns what is its own (its `deviceId`), and nothing of a person's;
    /// - an app's key owns only what belongs to the app as a whole (no person, no device);
    /// - an operator's key (`operatorApp`'s) owns that of every app.
    package static func permits(_ principals: [Principal], _ owner: ResourceOwner) -> Bool {
        principals.contains { permits($0, owner) }
    }

    /// Whether `principal` owns a thing that belongs to each of `owners` (a booking: its customer,
    /// its walker, its business).
    package static func permits(_ principal: Principal, anyOf owners: [ResourceOwner]) -> Bool {
        owners.contains { permits(principal, $0) }
    }

    package static func permits(_ principal: Principal, _ owner: ResourceOwner) -> Bool {
        if case .key(operatorApp, _) = principal { return owner.personId == nil && owner.deviceId == nil && owner.org == nil }
        guard principal.app == owner.app else { return false }
        switch principal {
        case .nobody:
            return false
        case .key:
            return owner.personId == nil && owner.deviceId == nil && owner.org == nil
        case .person(_, let org, let personId, _):
            if let owned = owner.personId { return owned == personId && (owner.org.map { $0 == org } ?? true) }
            return owner.deviceId == nil && owner.org == org
        case .device(_, let deviceId):
            return owner.personId == nil && owner.deviceId == deviceId
        }
    }
}
