import Foundation
import MusterPlatform
import MusterEvents

/// `POST /pets` and `PUT /pets/{id}`: the five fields the app always sends, the rest left out when empty.
struct PetRequest: Decodable {
    var name, species, gender, vaccinationStatus, dateOfBirth: String?
    var isSpayedNeutered: Bool?
    var weightLbs: Double?
    var breed, color, microchipId, temperament, specialNeeds, vetName, vetPhone: String?
    var emergencyContactName, emergencyContactPhone, notes: String?

    var edit: PetEdit {
        var edit = PetEdit()
        (edit.name, edit.species, edit.gender, edit.vaccinationStatus, edit.dateOfBirth) = (name, species, gender, vaccinationStatus, dateOfBirth)
        (edit.isSpayedNeutered, edit.weightLbs) = (isSpayedNeutered, weightLbs)
        (edit.breed, edit.color, edit.microchipId, edit.temperament, edit.specialNeeds) = (breed, color, microchipId, temperament, specialNeeds)
        (edit.vetName, edit.vetPhone, edit.emergencyContactName, edit.emergencyContactPhone, edit.notes) =
            (vetName, vetPhone, emergencyContactName, emergencyContactPhone, notes)
        return edit
    }

    enum CodingKeys: String, CodingKey {
        case name, species, gender, vaccinationStatus = "vaccination_status", dateOfBirth = "date_of_birth", isSpayedNeutered = "is_spayed_neutered",
             weightLbs = "weight_lbs", breed, color, microchipId = "microchip_id", temperament, specialNeeds = "special_needs", vetName = "vet_name",
             vetPhone = "vet_phone", emergencyContactName = "emergency_contact_name", emergencyContactPhone = "emergency_contact_phone", notes
    }
}

/// `Pet`: `gender`, `vaccination_status` and `is_spayed_neutered` always present; `date_of_birth`
/// as a whole date-time (noon UTC of the day), never a bare date.
struct PetBody: Encodable {
    var id: String
    var userId: String
    var details: PetDetails
    var createdAt: String
    var updatedAt: String

    init(_ view: PetView) {
        id = view.pet.petId
        userId = view.pet.customerId
        details = view.details
        createdAt = ContractDates.seconds(view.pet.createdAt)
        updatedAt = ContractDates.seconds(view.pet.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, userId = "user_id", name, species, gender, isSpayedNeutered = "is_spayed_neutered", vaccinationStatus = "vaccination_status",
             dateOfBirth = "date_of_birth", weightLbs = "weight_lbs", breed, color, microchipId = "microchip_id", temperament,
             specialNeeds = "special_needs", vetName = "vet_name", vetPhone = "vet_phone", emergencyContactName = "emergency_contact_name",
             emergencyContactPhone = "emergency_contact_phone", photoUrl = "photo_url", notes, createdAt = "created_at", updatedAt = "updated_at"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let d = details
        try c.encode(id, forKey: .id)
        try c.encode(userId, forKey: .userId)
        try c.encode(d.name, forKey: .name)
        try c.encode(d.species, forKey: .species)
        try c.encode(d.gender, forKey: .gender)
        try c.encode(d.isSpayedNeutered, forKey: .isSpayedNeutered)
        try c.encode(d.vaccinationStatus, forKey: .vaccinationStatus)
        try c.encodeIfPresent(d.dateOfBirth.map { "\($0)T12:00:00Z" }, forKey: .dateOfBirth)
        try c.encodeIfPresent(d.weightLbs, forKey: .weightLbs)
        for (value, key) in [(d.breed, CodingKeys.breed), (d.color, .color), (d.microchipId, .microchipId), (d.temperament, .temperament),
                             (d.specialNeeds, .specialNeeds), (d.vetName, .vetName), (d.vetPhone, .vetPhone),
                             (d.emergencyContactName, .emergencyContactName), (d.emergencyContactPhone, .emergencyContactPhone),
                             (d.photoUrl, .photoUrl), (d.notes, .notes)] {
            try c.encodeIfPresent(value, forKey: key)
        }
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}

struct PetList: Encodable {
    var pets: [PetBody]
}
