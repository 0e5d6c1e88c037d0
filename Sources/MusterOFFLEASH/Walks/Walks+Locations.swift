import Foundation
import MusterEvents
import MusterLog
package import MusterPlatform

/// The fields of a location, sealed with the customer's key in the log.
package struct LocationDetails: Codable, Sendable, Equatable {
    package var name: String
    package var address: String
    package var city: String
    package var state: String
    package var zipCode: String
    package var latitude: Double
    package var longitude: Double
    package var notes: String?

    package var fullAddress: String { "\(address), \(city), \(state) \(zipCode)" }
}

/// A location as answers show it.
package struct LocationView: Sendable, Equatable {
    package var locationId: String
    package var details: LocationDetails
    package var isDefault: Bool
}

extension Walks {
    /// The customer's locations, oldest first; a location whose box no longer opens (the customer
    /// was forgotten) is left out.
    package func locations(_ claims: AccessClaims) async throws -> [LocationView] {
        let stored = await runner.read { state in state.locations.values.filter { claims.owns($0.customerId) } }
            .sorted { $0.createdSequence < $1.createdSequence }
        var views: [LocationView] = []
        for location in stored {
            guard let details = try await people.vault.open(LocationDetails.self, location.sealed, for: claims.personId) else { continue }
            views.append(LocationView(locationId: location.locationId, details: details, isDefault: location.isDefault))
        }
        return views
    }

    /// Adds (`locationId` nil) or changes one of the customer's locations. The same address twice
    /// (trimmed, case-insensitive) is refused.
    package func saveLocation(_ claims: AccessClaims, locationId: String?, _ raw: LocationDetails, isDefault: Bool?) async throws -> LocationView {
        let details = try Self.checked(raw)
        let existing = await runner.read { state in locationId.flatMap { state.locations[$0] } }
        if let locationId, !(existing.map { claims.owns($0.customerId) } ?? false) { throw OFFLEASHError(.notFound, "no location \(locationId.prefix(64))") }
        let normalised = [details.address, details.city, details.state, details.zipCode]
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }.joined(separator: "\n")
        let addressKey = try await people.keyedHash("offleash-address\n\(claims.personId)\n\(normalised)")
        let (taken, hasAny) = await runner.read { state in
            (state.locations.values.contains { claims.owns($0.customerId) && $0.addressKey == addressKey && $0.locationId != locationId },
             state.locations.values.contains { claims.owns($0.customerId) })
        }
        guard !taken else { throw OFFLEASHError(.duplicate, "You already saved this address") }
        // A new location's id comes from its address, and it is appended expecting that
        // aggregate to be new (or removed): of two requests saving one address at once, the log
        // takes one and refuses the other, whatever the fold had seen.
        let id = locationId ?? Self.derivedID("location", claims.personId, addressKey)
        var expected = ExpectedVersion.any
        if locationId == nil, let last = try await log.lastSequence(app: "offleash", aggregate: "location", id: id) {
            // Saved before: a duplicate unless its last event (folded now) removed it.
            _ = await runner.waitUntilApplied(last, timeout: Self.settle)
            guard await runner.read({ $0.locations[id] }) == nil else { throw OFFLEASHError(.duplicate, "You already saved this address") }
            expected = .at(last)
        } else if locationId == nil {
            expected = .noEvents
        }
        // The first location is the default; otherwise as asked, or as it was.
        let makeDefault = isDefault ?? existing?.isDefault ?? !hasAny
        let sealed = try await people.vault.seal(details, for: claims.personId)
        do {
            try await append(LocationSaved(locationId: id, customerId: claims.personId, addressKey: addressKey, sealed: sealed,
                                           isDefault: makeDefault || !hasAny), actor: claims.personId, options: AppendOptions(expected: expected))
        } catch let error as AppendError where error.code == .conflict {
            throw OFFLEASHError(.duplicate, "You already saved this address")
        }
        return LocationView(locationId: id, details: details, isDefault: makeDefault || !hasAny)
    }

    /// One of the caller's locations; another's is as unknown as none.
    package func location(_ claims: AccessClaims, locationId: String) async throws -> LocationView {
        guard let view = try await locations(claims).first(where: { $0.locationId == locationId }) else {
            throw OFFLEASHError(.notFound, "no location \(locationId.prefix(64))")
        }
        return view
    }

    package func removeLocation(_ claims: AccessClaims, locationId: String) async throws {
        guard let owner = await runner.read({ $0.locations[locationId]?.customerId }), claims.owns(owner) else {
            throw OFFLEASHError(.notFound, "no location \(locationId.prefix(64))")
        }
        try await append(LocationRemoved(locationId: locationId, customerId: claims.personId), actor: claims.personId)
    }

    package func makeDefault(_ claims: AccessClaims, locationId: String) async throws -> LocationView {
        guard let owner = await runner.read({ $0.locations[locationId]?.customerId }), claims.owns(owner) else {
            throw OFFLEASHError(.notFound, "no location \(locationId.prefix(64))")
        }
        try await append(LocationDefaulted(locationId: locationId, customerId: claims.personId), actor: claims.personId)
        guard let view = try await locations(claims).first(where: { $0.locationId == locationId }) else {
            throw OFFLEASHError(.notFound, "no location \(locationId.prefix(64))")
        }
        return view
    }

    static func checked(_ raw: LocationDetails) throws -> LocationDetails {
        func text(_ value: String, _ field: String, _ range: ClosedRange<Int>) throws -> String {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard range.contains(trimmed.count) else {
                throw OFFLEASHError(.invalidField(field), "\(field) must be \(range.lowerBound) to \(range.upperBound) characters")
            }
            return trimmed
        }
        var details = raw
        details.name = try text(raw.name, "name", 1...100)
        details.address = try text(raw.address, "address", 1...200)
        details.city = try text(raw.city, "city", 1...100)
        details.state = try text(raw.state, "state", 1...50)
        details.zipCode = try text(raw.zipCode, "zip_code", 1...20)
        if let notes = raw.notes?.trimmingCharacters(in: .whitespacesAndNewlines) {
            details.notes = notes.isEmpty ? nil : try text(notes, "notes", 1...1000)
        }
        guard raw.latitude.isFinite, (-90...90).contains(raw.latitude) else {
            throw OFFLEASHError(.invalidField("latitude"), "latitude must be between -90 and 90")
        }
        guard raw.longitude.isFinite, (-180...180).contains(raw.longitude) else {
            throw OFFLEASHError(.invalidField("longitude"), "longitude must be between -180 and 180")
        }
        return details
    }
}
