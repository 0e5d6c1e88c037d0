package import Foundation

/// A CloudEvents 1.0 event in structured JSON mode, as stored in the log.
///
/// Extensions: `traceparent` (W3C trace context) and `actor`, the acting key or user id (never raw PII).
package struct EventEnvelope<Payload: EventPayload>: Codable, Sendable, Equatable {
    package var specversion: String
    package var id: String
    package var source: String
    package var type: String
    /// The aggregate id.
    package var subject: String
    package var time: String
    package var datacontenttype: String
    package var dataschema: String
    package var traceparent: String?
    package var actor: String?
    package var data: Payload

    package init(id: String = EventID.make(), source: String, time: Date = Date(), traceparent: String? = nil,
                actor: String? = nil, data: Payload) {
        specversion = "1.0"
        self.id = id
        self.source = source
        type = Payload.eventType.description
        subject = data.aggregateID
        self.time = Timestamp.string(time)
        datacontenttype = Self.contentType
        dataschema = Payload.eventType.schemaPath
        self.traceparent = traceparent
        self.actor = actor
        self.data = data
    }

    /// Every attribute as stored (`decodeStored`).
    init(specversion: String, id: String, source: String, type: String, subject: String, time: String, datacontenttype: String,
         dataschema: String, traceparent: String?, actor: String?, data: Payload) {
        self.specversion = specversion
        self.id = id
        self.source = source
        self.type = type
        self.subject = subject
        self.time = time
        self.datacontenttype = datacontenttype
        self.dataschema = dataschema
        self.traceparent = traceparent
        self.actor = actor
        self.data = data
    }

    /// The one content type of every event's data.
    static var contentType: String { "application/json" }

    /// The envelope's own rules: CloudEvents' required attributes, and agreement with the payload type.
    package func validate() throws { try validate(storedAs: Payload.eventType) }

    /// The same rules for an envelope read as `Payload` but written as `stored`, a newer major of
    /// its family (`EventCatalog.decode` reading forward).
    func validate(storedAs stored: EventType) throws {
        guard specversion == "1.0" else { throw EventValidationError(field: "/specversion", "must be \"1.0\"") }
        // Bytes first: counting characters walks the whole text, and an id of 128 bytes or fewer has at most 128.
        guard !id.isEmpty, id.utf8.count <= 128 || id.count <= 128 else { throw EventValidationError(field: "/id", "must be 1 to 128 characters") }
        guard !source.isEmpty else { throw EventValidationError(field: "/source", "must not be empty") }
        guard type == stored.description else {
            throw EventValidationError(field: "/type", "is \(type), expected \(stored)")
        }
        guard subject == data.aggregateID else {
            throw EventValidationError(field: "/subject", "must equal the aggregate id \(data.aggregateID)")
        }
        guard datacontenttype == Self.contentType else {
            throw EventValidationError(field: "/datacontenttype", "must be application/json")
        }
        try Validate.timestamp(time, field: "/time")
        do { try data.validate() } catch var error as EventValidationError {
            error.field = "/data" + error.field
            throw error
        }
    }
}

/// Event ids: time-ordered and unique without coordination: `evt_`, 48-bit milliseconds and 64
/// random bits, in 28 lowercase hex digits.
package enum EventID {
    /// An id with 64 bits drawn from the system's generator: one system call an id. The log's
    /// appends take theirs from an `EventIDSource` instead.
    package static func make(now: Date = Date()) -> String {
        var system = SystemRandomNumberGenerator()
        return spell(now: now, random: system.next())
    }

    static func spell(now: Date, random: UInt64) -> String {
        let millis = UInt64(max(0, now.timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
        // Written digit by digit into one buffer: three hex strings padded and joined cost more
        // than the rest of the envelope's header work together.
        return String(unsafeUninitializedCapacity: 32) { out in
            let hex: StaticString = "0123456789abcdef"
            for (offset, byte) in "evt_".utf8.enumerated() { out[offset] = byte }
            for digit in 0..<12 { out[4 + digit] = hex.utf8Start[Int(millis >> (44 - 4 * digit) & 0xF)] }
            for digit in 0..<16 { out[16 + digit] = hex.utf8Start[Int(random >> (60 - 4 * digit) & 0xF)] }
            return 32
        }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
