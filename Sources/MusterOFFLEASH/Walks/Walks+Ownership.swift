import MusterPlatform
import MusterRuntime

/// Who owns OFFLEASH's things, asked of `Access.permits` alone: a customer's locations, pets,
/// cards, payments, series and subscriptions; a walker's areas; a business's services; a booking
/// (its customer's, its walker's, its business admins'). A thing the person does not own is
/// answered as absent (404), whatever their role.
extension AccessClaims {
    /// Whether the thing is this person's: `person`'s, in `org` when it belongs to one.
    func owns(_ person: String, in org: String? = nil) -> Bool {
        Access.permits(principal, ResourceOwner(app: OFFLEASHApp.appName, org: org, personId: person))
    }

    /// Whether the thing is this person's, or they administer `org`, the business it belongs to.
    func ownsOrAdministers(_ person: String, in org: String?) -> Bool {
        var owners = [ResourceOwner(app: OFFLEASHApp.appName, org: org, personId: person)]
        if let org, holds(.admin) { owners.append(ResourceOwner(app: OFFLEASHApp.appName, org: org)) }
        return Access.permits(principal, anyOf: owners)
    }

    /// Whether the thing belongs to the business the person signed in to (its services, its day).
    func belongs(to org: String?) -> Bool {
        guard let org else { return false }
        return Access.permits(principal, ResourceOwner(app: OFFLEASHApp.appName, org: org))
    }

    /// Whether the person holds `role` (an owner holds admin too).
    func holds(_ role: OFFLEASHRole) -> Bool {
        OFFLEASHRole(rawValue: self.role)?.satisfies(role) == true
    }
}
