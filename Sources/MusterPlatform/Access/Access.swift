/// The one comparison of caller and owner that every route's "may this caller touch this thing?"
/// goes through. A thing of another owner is answered as absent (404), never as forbidden, so
/// its existence does not leak; a domain turns `false` into its own not-found error.
public enum Access {
    /// Whether any of `principals` (what one request proved: a key, a person, a device) owns a
    /// thing of `owner`:
    /// - the app must be the same, always;
    /// - a person owns what is theirs (its `personId`), or, for a thing of an organisation with
    ///   no person, what is their organisation's;
    /// - a device owns what is its own (its `deviceId`), and nothing of a person's;
    /// - an app's key owns only what belongs to the app as a whole (no person, no device).
    public static func permits(_ principals: [Principal], _ owner: ResourceOwner) -> Bool {
        principals.contains { permits($0, owner) }
    }

    public static func permits(_ principal: Principal, _ owner: ResourceOwner) -> Bool {
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
