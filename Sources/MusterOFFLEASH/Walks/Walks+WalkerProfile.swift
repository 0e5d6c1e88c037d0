package import Foundation
import MusterEvents
import MusterLog
package import MusterPlatform

/// What a walker tells customers about themselves, sealed with their key.
package struct WalkerProfileDetails: Codable, Sendable, Equatable {
    package var bio: String?
    package var emergencyContactName: String?
    package var emergencyContactPhone: String?
    package var emergencyContactRelationship: String?
    package var yearsExperience = 0
    /// The app's tokens (`largeBreeds`, `seniors`, …).
    package var specializations: [String] = []

    package init() {}
}

/// The specializations the app offers, by the tokens it sends and matches on reading back, with
/// the names it shows; the repo server's spellings are read as the same.
package enum Specializations {
    package static let names: [String: String] = [
        "puppies": "Puppies", "seniors": "Senior Dogs", "largeBreeds": "Large Breeds", "smallBreeds": "Small Breeds",
        "anxiousDogs": "Anxious/Reactive Dogs", "multiple_dogs": "Multiple Dogs at Once", "pet_first_aid": "Pet First Aid Certified",
        "dog_training": "Dog Training Experience",
    ]
    static let aliases: [String: String] = [
        "senior_dogs": "seniors", "large_breeds": "largeBreeds", "small_breeds": "smallBreeds", "anxious_reactive": "anxiousDogs",
        "largebreeds": "largeBreeds", "smallbreeds": "smallBreeds", "anxiousdogs": "anxiousDogs",
    ]

    /// The app's token for `text`, or nil when it names none.
    package static func token(_ text: String) -> String? {
        if names[text] != nil { return text }
        return aliases[text] ?? aliases[text.lowercased()]
    }
}

/// A walker's profile as answers show it.
package struct WalkerProfileView: Sendable, Equatable {
    package var walkerId: String
    package var details: WalkerProfileDetails
    package var createdAt: String
    package var updatedAt: String
}

/// What `PUT /walker/profile` sends: `specializations` replaces the set, the rest is partial.
package struct WalkerProfileEdit: Sendable, Equatable {
    package var bio, emergencyContactName, emergencyContactPhone: String?
    package var specializations: [String]?
    package init() {}
}

extension Walks {
    /// The caller's profile; an empty one until they first save it. Walkers, admins and owners.
    package func walkerProfile(_ claims: AccessClaims, now: Date = Date()) async throws -> WalkerProfileView {
        try requireRole(claims, .walker, .admin)
        guard let stored = await runner.read({ $0.walkerProfiles[claims.personId] }),
              let details = try await people.vault.open(WalkerProfileDetails.self, stored.value.sealed, for: claims.personId) else {
            let time = Timestamp.string(millis: Timestamp.millis(now), fraction: false)
            return WalkerProfileView(walkerId: claims.personId, details: WalkerProfileDetails(), createdAt: time, updatedAt: time)
        }
        return WalkerProfileView(walkerId: claims.personId, details: details, createdAt: stored.createdAt, updatedAt: stored.updatedAt)
    }

    package func saveWalkerProfile(_ claims: AccessClaims, _ edit: WalkerProfileEdit) async throws -> WalkerProfileView {
        try requireRole(claims, .walker, .admin)
        for _ in 0..<3 {
            var details = try await walkerProfile(claims).details
            let expected = await runner.read { $0.walkerSequence[claims.personId] }
            func text(_ value: String?, _ field: String, max: Int) throws -> String? {
                guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
                guard trimmed.count <= max else { throw OFFLEASHError(.invalidField(field), "\(field) must be at most \(max) characters") }
                return trimmed
            }
            details.bio = try text(edit.bio, "bio", max: 2000) ?? details.bio
            details.emergencyContactName = try text(edit.emergencyContactName, "emergency_contact_name", max: 200) ?? details.emergencyContactName
            details.emergencyContactPhone = try text(edit.emergencyContactPhone, "emergency_contact_phone", max: 32) ?? details.emergencyContactPhone
            if let given = edit.specializations {
                guard given.count <= 20 else { throw OFFLEASHError(.invalidField("specializations"), "at most 20 specializations") }
                var tokens: [String] = []
                for text in given {
                    guard let token = Specializations.token(text) else {
                        throw OFFLEASHError(.invalidField("specializations"), "unknown specialization \(text.prefix(40))")
                    }
                    if !tokens.contains(token) { tokens.append(token) }
                }
                details.specializations = tokens
            }
            let sealed = try await people.vault.seal(details, for: claims.personId)
            do {
                try await append(WalkerProfiled(walkerId: claims.personId, orgId: claims.org, sealed: sealed), actor: claims.personId,
                                 options: AppendOptions(expected: expected.map { .at($0) } ?? .any))
                return try await walkerProfile(claims)
            } catch let error as AppendError where error.code == .conflict {
                try await catchUp()
            }
        }
        throw OFFLEASHError(.conflict, "The profile changed meanwhile; try again")
    }

    /// The caller's service areas, by priority.
    package func serviceAreas(_ claims: AccessClaims) async throws -> [OFFLEASHProjection.Stamped<ServiceAreaSaved>] {
        try requireRole(claims, .walker, .admin)
        return await runner.read { state in state.areas.values.filter { claims.owns($0.value.walkerId, in: $0.value.orgId) } }
            .sorted { ($0.value.priority, $0.sequence) < ($1.value.priority, $1.sequence) }
    }

    /// Saves a drawn area. The app cannot read its answer and a walker may tap Save again: the same
    /// name and polygon from the same walker is the same area.
    package func saveServiceArea(_ claims: AccessClaims, name: String, color: String, polygon: [ServiceAreaSaved.Point], isActive: Bool,
                                priority: Int, priceAdjustmentPercent: Int) async throws -> OFFLEASHProjection.Stamped<ServiceAreaSaved> {
        try requireRole(claims, .walker, .admin)
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard polygon.count >= 3 else { throw OFFLEASHError(.invalidField("polygon"), "an area needs at least 3 points") }
        let shape = polygon.map { "\($0.lat),\($0.lng)" }.joined(separator: ";")
        let areaId = Self.derivedID("area", claims.personId, name, shape)
        if let existing = await runner.read({ $0.areas[areaId] }) { return existing }
        let area = ServiceAreaSaved(areaId: areaId, walkerId: claims.personId, orgId: claims.org, name: name, color: color.uppercased(),
                                    polygon: polygon, isActive: isActive, priority: priority, priceAdjustmentPercent: priceAdjustmentPercent)
        let last = try await log.lastSequence(app: "offleash", aggregate: "area", id: areaId)
        do {
            try await append(area, actor: claims.personId, options: AppendOptions(expected: last.map { .at($0) } ?? .noEvents))
        } catch let error as AppendError where error.code == .conflict {
            try await catchUp() // the same area, saved by the other tap
        }
        guard let saved = await runner.read({ $0.areas[areaId] }) else { throw OFFLEASHError(.conflict, "The area is still being saved; try again") }
        return saved
    }

    package func removeServiceArea(_ claims: AccessClaims, areaId: String) async throws {
        guard let walker = await runner.read({ $0.areas[areaId]?.value.walkerId }), claims.owns(walker) else {
            throw OFFLEASHError(.notFound, "no service area \(areaId.prefix(64))")
        }
        try await append(ServiceAreaRemoved(areaId: areaId, walkerId: claims.personId), actor: claims.personId)
    }
}
