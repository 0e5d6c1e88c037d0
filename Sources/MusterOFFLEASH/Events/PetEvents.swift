package import MusterEvents

/// `offleash.pet.saved.v1`: a customer's pet, added or changed. What the customer wrote about it
/// (vet, emergency contacts, health) is personal: all of it is sealed with the customer's key.
package struct PetSaved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "pet", event: "saved", major: 1)

    package var petId: String
    package var customerId: String
    package var orgId: String
    /// Base64 AES-GCM box of the pet's fields (`PetDetails`).
    package var sealed: String

    package var aggregateID: String { petId }

    package func validate() throws {
        try Validate.uuid(petId, field: "/petId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.base64(sealed, 40...16384, field: "/sealed")
    }
}

/// `offleash.pet.removed.v1`: the pet leaves the customer's list.
package struct PetRemoved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "pet", event: "removed", major: 1)

    package var petId: String
    package var customerId: String

    package var aggregateID: String { petId }

    package func validate() throws {
        try Validate.uuid(petId, field: "/petId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}
