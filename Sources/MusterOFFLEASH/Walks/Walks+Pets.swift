package import Foundation
import MusterEvents
import MusterLog
import MusterRuntime
package import MusterPlatform

/// A pet's fields, sealed with its customer's key in the log.
package struct PetDetails: Codable, Sendable, Equatable {
    package static let species: Set<String> = ["dog", "cat", "other"]
    package static let genders: Set<String> = ["male", "female", "unknown"]
    package static let vaccinations: Set<String> = ["up_to_date", "partial", "expired", "unknown"]

    package var name: String
    package var species: String
    package var gender: String = "unknown"
    package var isSpayedNeutered = false
    package var vaccinationStatus: String = "unknown"
    /// `YYYY-MM-DD`, as the app sends it.
    package var dateOfBirth: String?
    package var weightLbs: Double?
    package var breed, color, microchipId, temperament, specialNeeds, vetName, vetPhone: String?
    package var emergencyContactName, emergencyContactPhone, photoUrl, notes: String?

    package init(name: String, species: String) {
        self.name = name
        self.species = species
    }
}

/// What a save sends: every key may be absent (an edit changes only what it names).
package struct PetEdit: Sendable, Equatable {
    package var name, species, gender, vaccinationStatus, dateOfBirth: String?
    package var isSpayedNeutered: Bool?
    package var weightLbs: Double?
    package var breed, color, microchipId, temperament, specialNeeds, vetName, vetPhone: String?
    package var emergencyContactName, emergencyContactPhone, notes: String?

    package init() {}
}

/// A pet as answers show it.
package struct PetView: Sendable, Equatable {
    package var pet: OFFLEASHProjection.Pet
    package var details: PetDetails
}

extension Walks {
    /// The customer's pets in the token's organisation, oldest first.
    package func pets(_ claims: AccessClaims) async throws -> [PetView] {
        let stored = await runner.read { state in state.pets.values.filter { claims.owns($0.customerId, in: $0.orgId) } }
            .sorted { $0.createdSequence < $1.createdSequence }
        var views: [PetView] = []
        for pet in stored {
            guard let details = try await people.vault.open(PetDetails.self, pet.sealed, for: claims.personId) else { continue }
            views.append(PetView(pet: pet, details: details))
        }
        return views
    }

    /// One of the caller's pets; another's is as unknown as none.
    package func pet(_ claims: AccessClaims, petId: String) async throws -> PetView {
        guard let pet = await runner.read({ $0.pets[petId] }), claims.owns(pet.customerId, in: pet.orgId),
              let details = try await people.vault.open(PetDetails.self, pet.sealed, for: claims.personId) else {
            throw OFFLEASHError(.notFound, "no pet \(petId.prefix(64))")
        }
        return PetView(pet: pet, details: details)
    }

    /// Adds a pet (`petId` nil) or changes one of the caller's, with the fields `edit` names.
    package func savePet(_ claims: AccessClaims, petId: String?, _ edit: PetEdit, now: Date = Date()) async throws -> PetView {
        for _ in 0..<3 {
            var details: PetDetails
            var expected = ExpectedVersion.noEvents
            if let petId {
                let current = try await pet(claims, petId: petId)
                details = current.details
                expected = .at(current.pet.sequence)
            } else {
                guard let name = edit.name, let species = edit.species else {
                    throw OFFLEASHError(.invalidField(edit.name == nil ? "name" : "species"), "name and species are required")
                }
                details = PetDetails(name: name, species: species)
            }
            try Self.apply(edit, to: &details, now: now)
            let id = petId ?? SecureRandom.uuidString()
            let sealed = try await people.vault.seal(details, for: claims.personId)
            do {
                try await append(PetSaved(petId: id, customerId: claims.personId, orgId: claims.org, sealed: sealed), actor: claims.personId,
                                 options: AppendOptions(expected: expected))
                return try await pet(claims, petId: id)
            } catch let error as AppendError where error.code == .conflict && petId != nil {
                try await catchUp() // edited meanwhile: apply this edit to the newer pet
            }
        }
        throw OFFLEASHError(.conflict, "The pet changed meanwhile; try again")
    }

    package func removePet(_ claims: AccessClaims, petId: String) async throws {
        _ = try await pet(claims, petId: petId)
        try await append(PetRemoved(petId: petId, customerId: claims.personId), actor: claims.personId)
    }

    /// The edit's fields onto `details`, each checked; empty text keeps what is there (the app
    /// cannot clear a field, and leaves empty ones out anyway).
    static func apply(_ edit: PetEdit, to details: inout PetDetails, now: Date) throws {
        func text(_ value: String?, _ field: String, max: Int) throws -> String? {
            guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
            guard trimmed.count <= max else { throw OFFLEASHError(.invalidField(field), "\(field) must be at most \(max) characters") }
            return trimmed
        }
        func choice(_ value: String?, _ field: String, _ allowed: Set<String>) throws -> String? {
            guard let value else { return nil }
            guard allowed.contains(value) else { throw OFFLEASHError(.invalidField(field), "\(field) must be one of \(allowed.sorted().joined(separator: ", "))") }
            return value
        }
        if let name = edit.name {
            guard let trimmed = try text(name, "name", max: 100) else { throw OFFLEASHError(.invalidField("name"), "name must not be blank") }
            details.name = trimmed
        }
        details.species = try choice(edit.species, "species", PetDetails.species) ?? details.species
        details.gender = try choice(edit.gender, "gender", PetDetails.genders) ?? details.gender
        details.vaccinationStatus = try choice(edit.vaccinationStatus, "vaccination_status", PetDetails.vaccinations) ?? details.vaccinationStatus
        details.isSpayedNeutered = edit.isSpayedNeutered ?? details.isSpayedNeutered
        if let born = edit.dateOfBirth {
            guard let millis = Timestamp.millis(day: born), born.count == 10, millis <= Timestamp.millis(now) + 86_400_000,
                  millis >= Timestamp.millis(day: "1950-01-01") ?? 0 else {
                throw OFFLEASHError(.invalidField("date_of_birth"), "date_of_birth must be a YYYY-MM-DD date, not in the future")
            }
            details.dateOfBirth = born
        }
        if let weight = edit.weightLbs {
            guard weight.isFinite, weight > 0, weight <= 400 else { throw OFFLEASHError(.invalidField("weight_lbs"), "weight_lbs must be above 0 and at most 400") }
            details.weightLbs = weight
        }
        details.breed = try text(edit.breed, "breed", max: 100) ?? details.breed
        details.color = try text(edit.color, "color", max: 100) ?? details.color
        details.microchipId = try text(edit.microchipId, "microchip_id", max: 64) ?? details.microchipId
        details.temperament = try text(edit.temperament, "temperament", max: 500) ?? details.temperament
        details.specialNeeds = try text(edit.specialNeeds, "special_needs", max: 1000) ?? details.specialNeeds
        details.vetName = try text(edit.vetName, "vet_name", max: 200) ?? details.vetName
        details.vetPhone = try text(edit.vetPhone, "vet_phone", max: 32) ?? details.vetPhone
        details.emergencyContactName = try text(edit.emergencyContactName, "emergency_contact_name", max: 200) ?? details.emergencyContactName
        details.emergencyContactPhone = try text(edit.emergencyContactPhone, "emergency_contact_phone", max: 32) ?? details.emergencyContactPhone
        details.notes = try text(edit.notes, "notes", max: 2000) ?? details.notes
    }
}
