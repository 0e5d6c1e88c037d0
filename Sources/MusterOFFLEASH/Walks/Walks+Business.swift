package import Foundation
import MusterEvents
import MusterLog
package import MusterPlatform

/// What a business's owner and admins see of all of it (the business console): every walker's
/// walks, the payments, the customers and their pets. The app's own reads show a person their own;
/// these show an admin their business's, and nothing of another business's.
extension Walks {
    /// The business's walks that overlap `from`…`to` (milliseconds), every walker's, soonest first.
    package func businessBookings(_ claims: AccessClaims, from: Int64, to: Int64) async throws -> [BookingView] {
        try requireRole(claims, .admin)
        let walkers = Set(await walkers(org: claims.org))
        let found = await runner.read { state in
            // Each booking is tested where it lies and only the week's are copied: `filter` copied
            // every booking of every business to test it (a fifth of a busy week page's time).
            var found: [OFFLEASHProjection.Booking] = []
            let bookings = state.bookings.values
            var index = bookings.startIndex
            while index != bookings.endIndex {
                if bookings[index].end > from, bookings[index].start < to, walkers.contains(bookings[index].walkerId) { found.append(bookings[index]) }
                bookings.formIndex(after: &index)
            }
            return found
        }
        var views: [BookingView] = []
        for booking in found.sorted(by: { ($0.start, $0.bookingId) < ($1.start, $1.bookingId) }) { views.append(try await view(booking, listed: true)) }
        return views
    }

    /// The business's requests still waiting for an answer (pending walks that have not begun), soonest first.
    package func pendingRequests(_ claims: AccessClaims, now: Date = Date()) async throws -> [BookingView] {
        try requireRole(claims, .admin)
        let walkers = Set(await walkers(org: claims.org)), nowMillis = Timestamp.millis(now)
        let found = await runner.read { state in
            state.bookings.values.filter { walkers.contains($0.walkerId) && $0.status == "pending" && $0.end > nowMillis }
        }
        var views: [BookingView] = []
        for booking in found.sorted(by: { ($0.start, $0.bookingId) < ($1.start, $1.bookingId) }) { views.append(try await view(booking, listed: true)) }
        return views
    }

    /// The business's payments, newest first.
    package func businessTransactions(_ claims: AccessClaims) async throws -> [OFFLEASHProjection.Transaction] {
        try requireRole(claims, .admin)
        return await runner.read { state in state.transactions.values.filter { $0.priced.orgId == claims.org } }
            .sorted { ($0.createdAt, $0.priced.transactionId) > ($1.createdAt, $1.priced.transactionId) }
    }

    /// A customer of the business with their pets' names (opened with the customer's key).
    package struct Customer: Sendable {
        package var id: String
        package var name: String
        package var email: String
        package var pets: [String]
    }

    package func customers(_ claims: AccessClaims) async throws -> [Customer] {
        try requireRole(claims, .admin)
        let ids = await people.runner.read { state in
            let own = state.people.filter { $0.value.orgId == claims.org && OFFLEASHRole(rawValue: $0.value.role) == .customer && !$0.value.forgotten }.keys
            let joined = state.memberships.filter { person, held in
                state.people[person]?.forgotten == false && held.contains { $0.orgId == claims.org && OFFLEASHRole(rawValue: $0.role) == .customer }
            }.keys
            return Set(own).union(joined).sorted()
        }
        let petsByCustomer = await runner.read { state in Dictionary(grouping: state.pets.values.filter { $0.orgId == claims.org }, by: \.customerId) }
        var customers: [Customer] = []
        for id in ids {
            guard let (_, personal) = try await people.opened(id) else { continue }
            var names: [String] = []
            for pet in (petsByCustomer[id] ?? []).sorted(by: { $0.createdSequence < $1.createdSequence }) {
                if let details = try await people.vault.open(PetDetails.self, pet.sealed, for: id) { names.append("\(details.name) (\(details.species))") }
            }
            customers.append(Customer(id: id, name: "\(personal.firstName) \(personal.lastName)", email: personal.email, pets: names))
        }
        return customers.sorted { $0.name < $1.name }
    }

    /// An invitation the business sent that nobody has used yet: its role and when it expires (the
    /// address it went to is kept only as a keyed hash, so the list cannot show it).
    package struct PendingInvitation: Sendable {
        package var role: String
        package var expiresAt: Int64
    }

    package func pendingInvitations(_ claims: AccessClaims, now: Date = Date()) async throws -> [PendingInvitation] {
        try requireRole(claims, .admin)
        let nowMillis = Timestamp.millis(now)
        return await people.runner.read { state in
            state.invitations.values.filter { $0.orgId == claims.org && $0.acceptedBy == nil && $0.expiresAt > nowMillis }
                .map { PendingInvitation(role: $0.role, expiresAt: $0.expiresAt) }
        }.sorted { $0.expiresAt < $1.expiresAt }
    }

    /// The business's time zone: its first rostered walker's, else UTC.
    package func timeZone(of org: String) async -> TimeZone {
        let zone = await runner.read { state in state.rosters.values.filter { $0.orgId == org }.map(\.timeZone).sorted().first }
        return zone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .current
    }
}
