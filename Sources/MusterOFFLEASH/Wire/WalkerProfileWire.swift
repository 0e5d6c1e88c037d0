import Foundation
import MusterPlatform
import MusterEvents

/// `PUT /walker/profile`: `specializations` always sent (may be `[]`), the rest left out when empty.
struct WalkerProfileRequest: Decodable {
    var bio, emergencyContactName, emergencyContactPhone: String?
    var specializations: [String]?

    var edit: WalkerProfileEdit {
        var edit = WalkerProfileEdit()
        (edit.bio, edit.emergencyContactName, edit.emergencyContactPhone, edit.specializations) = (bio, emergencyContactName, emergencyContactPhone, specializations)
        return edit
    }

    enum CodingKeys: String, CodingKey {
        case bio, emergencyContactName = "emergency_contact_name", emergencyContactPhone = "emergency_contact_phone", specializations
    }
}

/// `WalkerProfile`, in the shape the app declares (this build cannot decode it: §1.3 of the contract).
struct WalkerProfileBody: Encodable {
    struct Specialization: Encodable {
        var specialization: String
        var displayName: String
        var certified = false
        enum CodingKeys: String, CodingKey { case specialization, displayName = "display_name", certified }
    }

    var id: String
    var userId: String
    var bio: String?
    var emergencyContactName: String?
    var emergencyContactPhone: String?
    var emergencyContactRelationship: String?
    var yearsExperience: Int
    var specializations: [Specialization]
    var createdAt: String
    var updatedAt: String

    init(_ view: WalkerProfileView) {
        id = view.walkerId
        userId = view.walkerId
        let d = view.details
        (bio, emergencyContactName, emergencyContactPhone, emergencyContactRelationship) = (d.bio, d.emergencyContactName, d.emergencyContactPhone,
                                                                                           d.emergencyContactRelationship)
        yearsExperience = d.yearsExperience
        specializations = d.specializations.map { Specialization(specialization: $0, displayName: Specializations.names[$0] ?? $0) }
        createdAt = ContractDates.seconds(view.createdAt)
        updatedAt = ContractDates.seconds(view.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, userId = "user_id", bio, emergencyContactName = "emergency_contact_name", emergencyContactPhone = "emergency_contact_phone",
             emergencyContactRelationship = "emergency_contact_relationship", yearsExperience = "years_experience", specializations,
             createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// `POST /walker/service-areas`, as the app sends it.
struct ServiceAreaRequest: Decodable {
    var name: String
    var color: String
    var polygon: [ServiceAreaSaved.Point]
    var isActive: Bool?
    var priority: Int?
    var priceAdjustmentPercent: Int?

    enum CodingKeys: String, CodingKey {
        case name, color, polygon, isActive = "is_active", priority, priceAdjustmentPercent = "price_adjustment_percent"
    }
}

/// `ServiceArea`.
struct ServiceAreaBody: Encodable {
    var id: String
    var walkerId: String
    var name: String
    var color: String
    var polygon: [ServiceAreaSaved.Point]
    var isActive: Bool
    var priority: Int
    var priceAdjustmentPercent: Int
    var notes: String?
    var createdAt: String
    var updatedAt: String

    init(_ stamped: OFFLEASHProjection.Stamped<ServiceAreaSaved>) {
        let a = stamped.value
        (id, walkerId, name, color, polygon) = (a.areaId, a.walkerId, a.name, a.color, a.polygon)
        (isActive, priority, priceAdjustmentPercent, notes) = (a.isActive, a.priority, a.priceAdjustmentPercent, a.notes)
        createdAt = ContractDates.seconds(stamped.createdAt)
        updatedAt = ContractDates.seconds(stamped.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, walkerId = "walker_id", name, color, polygon, isActive = "is_active", priority, priceAdjustmentPercent = "price_adjustment_percent",
             notes, createdAt = "created_at", updatedAt = "updated_at"
    }
}

struct Succeeded: Encodable {
    var success = true
}
