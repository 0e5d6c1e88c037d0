import Crypto
import Foundation
import MusterEvents
import MusterNATS
package import MusterLog
package import MusterPlatform
import MusterJSON
import MusterRuntime

/// OFFLEASH's domain: the catalog, customers' locations, walkers' rosters and bookings. Throws
/// `OFFLEASHError`; knows nothing of HTTP. Every caller is a signed-in person (`AccessClaims`),
/// and every answer is limited to the person's organisation.
package final class Walks: Sendable {
    package let log: EventLog
    package let runner: ProjectionRunner<OFFLEASHProjection>
    package let people: People
    /// What charges checkouts: Stripe's API (or its stand-in) when configured (docs/apps/offleash.md, "Payments").
    package let payments: any PaymentProvider
    /// The customer fee of every checkout, in hundredths of a percent (the repo's Free plan: 3 %).
    package let customerFeeBasisPoints: Int
    static let settle: Duration = .seconds(3)

    package init(log: EventLog, runner: ProjectionRunner<OFFLEASHProjection>, people: People,
                payments: any PaymentProvider = UnconfiguredPayments(), customerFeeBasisPoints: Int = 300) {
        self.log = log
        self.runner = runner
        self.people = people
        self.payments = payments
        self.customerFeeBasisPoints = customerFeeBasisPoints
    }

    // MARK: Services

    /// The organisation's services by name; only active ones when `activeOnly`.
    package func services(_ claims: AccessClaims, activeOnly: Bool) async -> [ServiceDefined] {
        await runner.read { state in
            state.services.values.filter { claims.belongs(to: $0.orgId) && (!activeOnly || $0.isActive) }
        }.sorted { ($0.name, $0.serviceId) < ($1.name, $1.serviceId) }
    }

    package struct ServiceFields: Sendable {
        package var name: String
        package var description: String?
        package var durationMinutes: Int
        package var priceCents: Int
        package var isActive: Bool
    }

    /// Creates (`serviceId` nil) or changes a service; admins only.
    package func defineService(_ claims: AccessClaims, serviceId: String?, _ fields: ServiceFields) async throws -> ServiceDefined {
        try requireRole(claims, .admin)
        if let serviceId {
            guard claims.belongs(to: await runner.read({ $0.services[serviceId]?.orgId })) else {
                throw OFFLEASHError(.notFound, "no service \(serviceId.prefix(64))")
            }
        }
        let service = ServiceDefined(serviceId: serviceId ?? SecureRandom.uuidString(), orgId: claims.org,
                                     name: fields.name.trimmingCharacters(in: .whitespacesAndNewlines),
                                     description: fields.description?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty,
                                     durationMinutes: fields.durationMinutes, priceCents: fields.priceCents, isActive: fields.isActive)
        try await append(service, actor: claims.personId)
        return service
    }

    // MARK: Rosters

    /// Sets when a walker works; admins only.
    package func setRoster(_ claims: AccessClaims, walkerId: String, timeZone: String, shifts: [WalkerRostered.Shift]) async throws {
        try requireRole(claims, .admin)
        guard await walkers(org: claims.org).contains(walkerId) else { throw OFFLEASHError(.notFound, "no walker \(walkerId.prefix(64))") }
        guard TimeZone(identifier: timeZone) != nil else { throw OFFLEASHError(.invalidField("time_zone"), "unknown time zone \(timeZone.prefix(64))") }
        try await append(WalkerRostered(walkerId: walkerId, orgId: claims.org, timeZone: timeZone, shifts: shifts), actor: claims.personId)
    }

    /// The walkers of an organisation (people with the walker role who are not forgotten).
    func walkers(org: String) async -> [String] {
        await people.runner.read { state in
            // Walkers whose sign-in belongs to the business, and those who joined or started it.
            let own = state.people.filter { $0.value.orgId == org && $0.value.role == OFFLEASHRole.walker.rawValue && !$0.value.forgotten }.keys
            let joined = state.memberships.filter { person, held in
                state.people[person]?.forgotten == false && held.contains { $0.orgId == org && [OFFLEASHRole.walker, .owner].map(\.rawValue).contains($0.role) }
            }.keys
            return Set(own).union(joined).sorted()
        }
    }

    // MARK: Plumbing

    /// The caller's role is one of `roles`; a business's owner may do what its admins may.
    /// The domain's own rule where a route's `AccessRule` is not the only way in (the domain is
    /// called from more than one route, or from the command line).
    package func requireRole(_ claims: AccessClaims, _ roles: OFFLEASHRole...) throws {
        guard roles.contains(where: claims.holds) else {
            throw OFFLEASHError(.forbidden, "this needs the \(roles.map(\.rawValue).joined(separator: " or ")) role")
        }
    }

    @discardableResult
    func append<P: EventPayload>(_ event: P, actor: String, options: AppendOptions = .init()) async throws -> UInt64 {
        var options = options
        options.actor = "person:\(actor)"
        let result: AppendResult
        do {
            result = try await log.append(event, options: options)
        } catch let error as AppendError where error.code == .invalid {
            throw OFFLEASHError(.invalidField(Self.fieldName(error.payloadError?.field)), error.payloadError?.reason ?? error.message)
        }
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        return result.sequence
    }

    /// `/durationMinutes` → `duration_minutes`, as the contract names fields.
    static func fieldName(_ pointer: String?) -> String {
        guard let pointer else { return "body" }
        var name = ""
        for character in pointer.dropFirst() {
            if character == "/" { name += "." } else if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
        return name.isEmpty ? "body" : name
    }

    /// A stable UUID for what `parts` name (a customer and their `Idempotency-Key`), so a retry
    /// names the same booking.
    static func derivedID(_ parts: String...) -> String {
        let digest = Array(SHA256.hash(data: Data(parts.joined(separator: "\n").utf8)))
        let hex = Hex.lowercase(digest.prefix(16))
        let chars = Array(hex)
        return "\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-a\(String(chars[17..<20]))-\(String(chars[20..<32]))"
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension Walks {
    package struct Walker: Sendable, Equatable {
        package var id: String
        package var firstName: String
        package var lastName: String
    }

    /// The organisation's walkers with their names (opened with each walker's key).
    package func walkerList(_ claims: AccessClaims) async throws -> [Walker] {
        var list: [Walker] = []
        for id in await walkers(org: claims.org) {
            guard let (_, personal) = try await people.opened(id) else { continue }
            list.append(Walker(id: id, firstName: personal.firstName, lastName: personal.lastName))
        }
        return list
    }
}
