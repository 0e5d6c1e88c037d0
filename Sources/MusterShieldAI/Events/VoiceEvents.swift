package import MusterEvents
import MusterPlatform

/// Where a blob lives: an object store bucket and the content's SHA-256. Events carry this, never the bytes.
package struct BlobRef: Codable, Sendable, Equatable {
    package var bucket: String
    /// Lowercase hex SHA-256 of the content.
    package var digest: String
    package var size: Int
    package var type: String

    package init(bucket: String, digest: String, size: Int, type: String) {
        self.bucket = bucket
        self.digest = digest
        self.size = size
        self.type = type
    }

    func validate(field: String) throws {
        try Validate.oneOf(bucket, ["muster_audio", "muster_images"], field: field + "/bucket")
        try Validate.prefixed(digest, "", .lowerHex, count: 64, field: field + "/digest", "64 lowercase hex digits (SHA-256)")
        guard (1...20_000_000).contains(size) else { throw EventValidationError(field: field + "/size", "must be 1 to 20000000 bytes") }
        try Validate.oneOf(type, ["audio/wav", "image/jpeg", "image/png", "image/heic"], field: field + "/type")
    }
}

/// Whose an enrollment or a document is: a signed-in person, or (with the app's key) a device.
package struct Owner: Codable, Sendable, Equatable, Hashable {
    package var personId: String?
    package var deviceId: String?

    package init(personId: String? = nil, deviceId: String? = nil) {
        self.personId = personId
        self.deviceId = deviceId
    }

    /// Who appends on the owner's behalf, for the log's `actor`.
    var actor: String { personId.map { "person:\($0)" } ?? "device:\(deviceId ?? "")" }

    func validate(field: String) throws {
        guard (personId == nil) != (deviceId == nil) else { throw EventValidationError(field: field, "must name a person or a device") }
        if let personId { try Validate.uuid(personId, field: field + "/personId") }
        if let deviceId { try DeviceRules.validateID(deviceId, field: field + "/deviceId") }
    }
}

/// `shieldai.voice.enrolled.v1`: a voice sample passed the checks (`WAVInspection`) and is stored.
package struct VoiceEnrolled: EventPayload {
    package static let eventType = EventType(app: "shieldai", aggregate: "voice", event: "enrolled", major: 1)

    package var enrollmentId: String
    package var owner: Owner
    package var audio: BlobRef
    package var durationMs: Int
    package var sampleRate: Int

    package init(enrollmentId: String, owner: Owner, audio: BlobRef, durationMs: Int, sampleRate: Int) {
        self.enrollmentId = enrollmentId
        self.owner = owner
        self.audio = audio
        self.durationMs = durationMs
        self.sampleRate = sampleRate
    }

    package var aggregateID: String { enrollmentId }

    package func validate() throws {
        try Validate.prefixed(enrollmentId, "enr_", .lowerHex, count: 32, field: "/enrollmentId", "enr_ followed by 32 lowercase hex digits")
        try owner.validate(field: "/owner")
        try audio.validate(field: "/audio")
        guard (5_000...60_000).contains(durationMs) else { throw EventValidationError(field: "/durationMs", "must be 5000 to 60000") }
        guard sampleRate == 16_000 else { throw EventValidationError(field: "/sampleRate", "must be 16000") }
    }
}

/// `shieldai.voice.erased.v1`: the enrollment's audio is erased from the object store (unless
/// another enrollment holds the same bytes), because its person was forgotten.
package struct VoiceErased: EventPayload {
    package static let eventType = EventType(app: "shieldai", aggregate: "voice", event: "erased", major: 1)

    package var enrollmentId: String

    package init(enrollmentId: String) {
        self.enrollmentId = enrollmentId
    }

    package var aggregateID: String { enrollmentId }

    package func validate() throws {
        try Validate.prefixed(enrollmentId, "enr_", .lowerHex, count: 32, field: "/enrollmentId", "enr_ followed by 32 lowercase hex digits")
    }
}

extension EventCatalog {
    /// ShieldAI's events.
    package static var shieldAI: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(VoiceEnrolled.self)
        catalog.register(VoiceErased.self)
        catalog.register(DocumentScanned.self)
        catalog.register(DocumentDeleted.self)
        return catalog
    }
}
