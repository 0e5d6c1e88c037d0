import MusterEvents
import MusterPlatform

extension OFFLEASHApp {
    /// OFFLEASH's people under `/api/offleash/auth/…` beside the app's own `/auth/…`: the same
    /// customers, sessions and rules (the app keeps calling `/auth/…` as its contract says).
    static func accounts(_ settings: OFFLEASHSettings, policy: People.TokenPolicy, walks: Walks) -> AppAccounts {
        AppAccounts(methods: [.password, .apple], policy: policy, defaultOrg: defaultOrg, person: .offleashPerson,
                    appleAudiences: settings.appleAudiences, displayName: "OFFLEASH", export: { claims in try await walks.export(claims) })
    }
}

extension Walks {
    /// What OFFLEASH holds about a person, for their export: the walks they booked, their pets and
    /// places, their saved cards (brand and last four only) and their payments.
    func export(_ claims: AccessClaims) async throws -> JSONValue {
        struct Export: Encodable {
            var bookings: [BookingBody]
            var pets: [PetBody]
            var locations: [LocationBody]
            var cards: [OFFLEASHProjection.Card]
            var transactions: [OFFLEASHProjection.Transaction]
        }
        let isWalker = OFFLEASHRole(rawValue: claims.role) == .walker
        return try JSONValue(encoding: Export(bookings: try await bookings(claims, asWalker: isWalker).map { BookingBody($0, listed: true) },
                                              pets: try await pets(claims).map(PetBody.init), locations: try await locations(claims).map(LocationBody.init),
                                              cards: await cards(claims), transactions: await transactions(claims)))
    }
}
