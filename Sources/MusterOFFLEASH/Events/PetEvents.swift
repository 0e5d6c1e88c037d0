public import MusterEvents

/// `offleash.pet.saved.v1`: a customer's pet, added or changed. What the customer wrote about it
/// (vet, emergency contacts, health) is personal: all of it is sealed with the customer's key.
public struct PetSaved: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "pet", event: "saved", major: 1)

    public var petId: String
    public var customerId: String
    public var orgId: String
    /// Base64 AES-GCM box of the pet's fields (`PetDetails`).
    public var sealed: String

    public var aggregateID: String { petId }

    public func validate() throws {
        try Validate.uuid(petId, field: "/petId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.base64(sealed, 40...16384, field: "/sealed")
    }
}

/// `offleash.pet.removed.v1`: the pet leaves the customer's list.
public struct PetRemoved: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "pet", event: "removed", major: 1)

    public var petId: String
    public var customerId: String

    public var aggregateID: String { petId }

    public func validate() throws {
        try Validate.uuid(petId, field: "/petId")
        try Validate.uuid(customerId, field: "/customerId")
    }
}
