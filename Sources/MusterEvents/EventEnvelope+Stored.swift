package import Foundation
package import MusterJSON

/// A payload type read from the stored form by hand, for the few types a profile shows hot
/// (a test holds each equal to its `Decodable` conformance on random payloads).
/// Declare it in the module that declares the type's `EventPayload` conformance: that is where
/// the envelope's way of reading the type is chosen (`decodeStoredData`), and a conformance added
/// elsewhere would leave the type read through `Codable`. The same holds for `JSONObjectEncodable`.
package protocol StoredFieldsDecodable: Sendable {
    init(storedFields: JSONFields) throws
}

// How a payload reads and writes itself inside its envelope, chosen once for each type where it
// conforms to `EventPayload`: by hand when it has a hand-written reader or writer.

extension EventPayload {
    package static func decodeStoredData(_ envelope: JSONFields) throws -> Self {
        try envelope.decode(Self.self, "data")
    }

    package func encodeStoredData(_ envelope: inout JSONObjectWriter) throws {
        try envelope.encode("data", self)
    }
}

extension EventPayload where Self: StoredFieldsDecodable {
    package static func decodeStoredData(_ envelope: JSONFields) throws -> Self {
        try Self(storedFields: envelope.required(envelope.object("data"), "data"))
    }
}

extension EventPayload where Self: JSONObjectEncodable {
    package func encodeStoredData(_ envelope: inout JSONObjectWriter) throws {
        try envelope.object("data") { try encodeMembers(&$0) }
    }
}

/// The stored form, read and written by hand: every event folded or appended passes here, and a
/// generic `Codable` envelope costs several times what the attributes themselves do. `data` goes
/// through the payload's own reader and writer when it has them, else its `Codable`. Agrees with
/// the synthesized conformance (a test holds them equal on every registered event type).
extension EventEnvelope {
    /// Reads a stored envelope. `storedAs`: the type the event was written as when that is not
    /// `Payload`'s (a newer major read forward); its type and schema attributes are that type's.
    package static func decodeStored(_ bytes: Data, storedAs stored: EventType = Payload.eventType) throws -> EventEnvelope {
        try bytes.withUnsafeBytes { raw in
            try EventCatalog.decoder.withFields(of: raw) { fields in
                // Read in the stored (sorted) order, each lookup then comparing one key; `data`
                // last, so a text that is no envelope at all is named by a missing attribute.
                func required(_ key: StaticString) throws -> String { try fields.required(fields.string(key), key) }
                // The attributes every event of the type repeats share one string (validate() compares them).
                func repeated(_ key: StaticString, _ expected: String) throws -> String { try fields.required(fields.string(key, sharing: expected), key) }
                let (actor, datacontenttype) = (try fields.string("actor"), try repeated("datacontenttype", Self.contentType))
                let (dataschema, id, source) = (try repeated("dataschema", stored.schemaPath), try required("id"), try required("source"))
                let (specversion, subject, time) = (try required("specversion"), try required("subject"), try required("time"))
                let (traceparent, type) = (try fields.string("traceparent"), try repeated("type", stored.description))
                // Made in the call, not kept in a local first: generic code then moves it into
                // the envelope instead of copying it there and destroying the original.
                return EventEnvelope(specversion: specversion, id: id, source: source, type: type, subject: subject, time: time,
                                     datacontenttype: datacontenttype, dataschema: dataschema, traceparent: traceparent, actor: actor,
                                     data: try Payload.decodeStoredData(fields))
            }
        }
    }

    /// Writes the stored form: keys in order, nil attributes left out, as the synthesized
    /// conformance and Foundation's `.sortedKeys` write them.
    package func encodeStored() throws -> Data {
        try Self.encoder.encodeObjectData { object in
            try object.string("actor", actor)
            try data.encodeStoredData(&object)
            try object.string("datacontenttype", datacontenttype)
            try object.string("dataschema", dataschema)
            try object.string("id", id)
            try object.string("source", source)
            try object.string("specversion", specversion)
            try object.string("subject", subject)
            try object.string("time", time)
            try object.string("traceparent", traceparent)
            try object.string("type", type)
        }
    }

    private static var encoder: JSONBytesEncoder { JSONBytesEncoder() }
}
