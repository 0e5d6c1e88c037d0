package import Foundation
import MusterJSON

/// An event read back from the log, decoded, validated and upcast to its type's newest major.
package struct RecordedEvent: Sendable {
    /// Position in the `EVENTS` stream.
    package var sequence: UInt64
    package var subject: String
    package var id: String
    package var source: String
    package var time: String
    package var actor: String?
    package var traceparent: String?
    /// The type as it was written; `payload` may be a newer major after upcasting.
    package var storedType: EventType
    package var aggregateID: String
    package var payload: any EventPayload

    package var type: EventType { payload.eventType }
    package func payload<P: EventPayload>(as type: P.Type) -> P? { payload as? P }
}

/// Every event type Muster knows, registered once, with the upcasters that turn an old major into
/// the newest one, so that projections only ever see the newest shape.
package struct EventCatalog: Sendable {
    struct Entry: Sendable {
        var type: EventType
        var swiftType: String
        var payloadType: any EventPayload.Type
        var decodeData: @Sendable (Data) throws -> any EventPayload
        /// Reads a stored envelope; validates it unless told it was validated under today's rules.
        /// `storedAs`: a newer major of the type's family it was written as (read forward).
        var decodeEnvelope: @Sendable (Data, _ validated: Bool, _ storedAs: EventType?) throws -> (any EventPayload, EnvelopeFields)
        /// What `Muster-Validated` says for an event of this type validated under its schema as it is now.
        var digest: String?
        var upcast: (@Sendable (any EventPayload) -> any EventPayload)?
        var upcastTarget: EventType?
        var retention: EventRetention
    }

    struct EnvelopeFields: Sendable {
        var id, source, time, subject: String
        var actor, traceparent: String?
    }

    private(set) var entries: [EventType: Entry] = [:]
    /// The entries again, by a hash of their name's bytes: a stored event's subject finds its
    /// entry without building an `EventType` (strings and a hash of each) for every event folded.
    private var byNameHash: [Int: [Entry]] = [:]

    package init() {}

    /// Registers a type. Registering one twice is a programming error.
    package mutating func register<P: EventPayload>(_ type: P.Type) {
        insert(entry(for: type, upcast: nil, target: nil))
    }

    /// Registers an older major of a type together with the step that makes it the next major.
    package mutating func register<Old: EventPayload, New: EventPayload>(_ type: Old.Type, upcast: @escaping @Sendable (Old) -> New) {
        precondition(Old.eventType.family == New.eventType.family && New.eventType.major > Old.eventType.major,
                     "an upcaster goes from one major of a type to a later one of the same type")
        insert(entry(for: type, upcast: { upcast($0 as! Old) }, target: New.eventType))
    }

    /// Adds every type of another catalog (one per domain module).
    package mutating func merge(_ other: EventCatalog) {
        for entry in other.entries.values { insert(entry) }
    }

    private mutating func insert(_ entry: Entry) {
        precondition(entries[entry.type] == nil, "event type \(entry.type) is registered twice")
        entries[entry.type] = entry
        var name = entry.type.description
        byNameHash[name.withUTF8 { Self.nameHash($0, nil) }, default: []].append(entry)
    }

    /// The hash of a type's name, `<app>.<aggregate>.<event>.v<major>`, given whole or as the two
    /// halves a subject holds around the aggregate id (`<app>.<aggregate>`, `<event>.v<major>`).
    private static func nameHash(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>?) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(first))
        if let second {
            hasher.combine(UInt8(ascii: "."))
            hasher.combine(bytes: UnsafeRawBufferPointer(second))
        }
        return hasher.finalize()
    }

    /// The entry and aggregate id of a stored event's subject (nil: not a subject of the log, or a
    /// type nobody registered, told apart by `decode`).
    private func entry(subject bytes: UnsafeBufferPointer<UInt8>) -> (Entry, String)? {
        guard let parts = Subject.Parts(bytes) else { return nil }
        let (prefix, suffix) = (UnsafeBufferPointer(rebasing: bytes[parts.typePrefix]), UnsafeBufferPointer(rebasing: bytes[parts.typeSuffix]))
        // Hasher feeds bytes as a stream, so the two halves hash as the whole name does.
        for entry in byNameHash[Self.nameHash(prefix, suffix)] ?? [] {
            var name = entry.type.description
            let same = name.withUTF8 { name in
                name.count == prefix.count + 1 + suffix.count && name[prefix.count] == UInt8(ascii: ".")
                    && UnsafeBufferPointer(rebasing: name[..<prefix.count]).elementsEqual(prefix)
                    && UnsafeBufferPointer(rebasing: name[(prefix.count + 1)...]).elementsEqual(suffix)
            }
            if same { return (entry, String(decoding: UnsafeBufferPointer(rebasing: bytes[parts.aggregateID]), as: UTF8.self)) }
        }
        return nil
    }

    private func entry<P: EventPayload>(for type: P.Type, upcast: (@Sendable (any EventPayload) -> any EventPayload)?,
                                        target: EventType?) -> Entry {
        Entry(
            type: P.eventType, swiftType: String(describing: P.self), payloadType: P.self,
            decodeData: { data in try EventCatalog.decoder.decode(P.self, from: data) },
            decodeEnvelope: { data, validated, newer in
                let stored = newer ?? P.eventType
                let envelope = try EventEnvelope<P>.decodeStored(data, storedAs: stored)
                if !validated { try envelope.validate(storedAs: stored) }
                return (envelope.data, EnvelopeFields(id: envelope.id, source: envelope.source, time: envelope.time,
                                                     subject: envelope.subject, actor: envelope.actor,
                                                     traceparent: envelope.traceparent))
            },
            digest: P.eventType.validationDigest, upcast: upcast, upcastTarget: target, retention: P.retention)
    }

    static let decoder = JSONBytesDecoder()

    /// The header an append stamps an event with once it passed validation (its type's
    /// `validationDigest`); `decode` takes its value.
    package static let validatedHeader = "Muster-Validated"

    /// Every registered type, oldest first within a family.
    package var types: [EventType] { entries.keys.sorted() }
    package func contains(_ type: EventType) -> Bool { entries[type] != nil }
    package func swiftTypeName(_ type: EventType) -> String? { entries[type]?.swiftType }
    /// The Swift type registered for `type` (tools and tests that work on every type).
    package func payloadType(_ type: EventType) -> (any EventPayload.Type)? { entries[type]?.payloadType }
    /// The major an old type is upcast to, if any.
    package func upcastTarget(of type: EventType) -> EventType? { entries[type]?.upcastTarget }
    /// How long the log keeps events of `type` (forever for a type nobody registered).
    package func retention(of type: EventType) -> EventRetention { entries[type]?.retention ?? .forever }
    /// The registered types the log does not keep forever.
    package var expiringTypes: [EventType] { types.filter { retention(of: $0) != .forever } }

    /// The newest major registered for a family (`platform.apikey.revoked` → v2).
    package func newest(_ family: String) -> EventType? {
        entries.keys.filter { $0.family == family }.max { $0.major < $1.major }
    }

    private func upcastFully(_ payload: any EventPayload) -> any EventPayload {
        var current = payload
        var steps = 0
        while let step = entries[current.eventType]?.upcast, steps < 16 {
            current = step(current)
            steps += 1
        }
        return current
    }

    /// Decodes and validates only the `data` of an event (what `muster publish` takes).
    package func decodeData(_ type: EventType, from json: Data) throws -> any EventPayload {
        guard let entry = entries[type] else { throw EventDecodingError.unknownType(type.description) }
        let payload: any EventPayload
        do { payload = try entry.decodeData(json) } catch let error as DecodingError {
            throw EventDecodingError.invalid(EventValidationError(decoding: error, prefix: ""))
        } catch {
            throw EventDecodingError.invalid(EventValidationError(field: "", "is not JSON: \(error)"))
        }
        do { try payload.validate() } catch let error as EventValidationError { throw EventDecodingError.invalid(error) }
        return payload
    }

    /// Decodes, validates and upcasts a stored event. Any failure names why: that reason is
    /// what a consumer writes into the DLQ.
    ///
    /// An event of a newer major than this build registers for its family (written by the next
    /// version of Muster while this one still runs: a rolling upgrade) is read forward, as the
    /// newest major this build knows. A new major that only adds fields reads that way: the
    /// fields this build does not know are passed over, the rest validated under its rules, and
    /// `storedType` says what was written. One that does not read so (a breaking change) throws
    /// `newerMajor`, which says to upgrade; the event stays in the log for the newer build.
    ///
    /// `validated` is the event's `Muster-Validated` header: an append stamps it with its type's
    /// schema digest once the event passed validation. Equal to the digest of the type as it is
    /// registered now (and no upcast pending: an older major is read under its own rules), the
    /// rules are not run again; the envelope is still decoded whole, so a stored text that does
    /// not read as its type still fails. Without it (a raw publish, an older schema) the event is
    /// validated as any other. The header is trusted as far as publishing to `events.>` is: only
    /// Muster's writing services and the operator may (deploy/nats/permissions.conf).
    package func decode(subject: String, sequence: UInt64, payload: Data, validated: String? = nil) throws -> RecordedEvent {
        var utf8 = subject
        let entry: Entry, aggregateID: String
        // Set when the event is read forward: the newer major it was written as.
        var newer: EventType?
        if let found = utf8.withUTF8({ self.entry(subject: $0) }) {
            (entry, aggregateID) = found
        } else {
            // Not found by its bytes: no subject of the log, a type nobody registered (maybe a
            // newer major of one), or a major spelled unlike ours (`v01`), which the parsed type
            // still finds.
            guard let (type, id) = Subject.parse(subject) else { throw EventDecodingError.badSubject(subject) }
            if let registered = entries[type] {
                (entry, aggregateID) = (registered, id)
            } else if let newest = newest(type.family), newest.major < type.major, let known = entries[newest] {
                (entry, aggregateID, newer) = (known, id, type)
            } else {
                throw EventDecodingError.unknownType(type.description)
            }
        }
        let decoded: (any EventPayload, EnvelopeFields)
        let trusted = newer == nil && validated != nil && entry.upcast == nil && validated == entry.digest
        do { decoded = try entry.decodeEnvelope(payload, trusted, newer) } catch {
            let reason = switch error {
            case let error as DecodingError: EventValidationError(decoding: error, prefix: "")
            case let error as EventValidationError: error
            default: EventValidationError(field: "", "is not JSON: \(error)")
            }
            guard let newer else { throw EventDecodingError.invalid(reason) }
            throw EventDecodingError.newerMajor(stored: newer.description, known: entry.type.description, reason: reason.description)
        }
        guard decoded.1.subject == aggregateID else {
            throw EventDecodingError.invalid(EventValidationError(field: "/subject", "is \(decoded.1.subject) but the NATS subject names \(aggregateID)"))
        }
        let fields = decoded.1
        return RecordedEvent(sequence: sequence, subject: subject, id: fields.id, source: fields.source, time: fields.time,
                             actor: fields.actor, traceparent: fields.traceparent, storedType: newer ?? entry.type,
                             aggregateID: aggregateID, payload: entry.upcast == nil ? decoded.0 : upcastFully(decoded.0))
    }
}

/// Why an event could not be read.
package enum EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    case badSubject(String)
    case unknownType(String)
    case invalid(EventValidationError)
    /// Written as a newer major of a family this build knows, and not readable as the newest it
    /// knows: a newer Muster wrote it.
    case newerMajor(stored: String, known: String, reason: String)

    package var description: String {
        switch self {
        case .badSubject(let subject): "subject \(subject) is not events.<app>.<aggregate>.<id>.<event>.v<major>"
        case .unknownType(let type): "unknown event type \(type)"
        case .invalid(let error): "invalid event: \(error)"
        case .newerMajor(let stored, let known, let reason):
            "\(stored) was written by a newer Muster and does not read as \(known), the newest major this build knows (\(reason)): upgrade this service; the event stays in the log"
        }
    }
}

extension EventValidationError {
    /// Names the field a `DecodingError` is about, as a JSON pointer.
    init(decoding error: DecodingError, prefix: String) {
        func pointer(_ path: [any CodingKey]) -> String {
            prefix + path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(field: pointer(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context):
            self.init(field: pointer(context.codingPath), "must be \(Self.jsonName(type))")
        case .valueNotFound(let type, let context):
            self.init(field: pointer(context.codingPath), "must be \(Self.jsonName(type)), not null")
        case .dataCorrupted(let context):
            let reason = context.underlyingError.map { "is not valid JSON (\($0.localizedDescription))" } ?? context.debugDescription
            self.init(field: pointer(context.codingPath), reason)
        @unknown default:
            self.init(field: prefix, "\(error)")
        }
    }

    static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
