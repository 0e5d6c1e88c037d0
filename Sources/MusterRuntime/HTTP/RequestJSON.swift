package import Hummingbird
import MusterEvents
import MusterJSON

/// Checks on a JSON request body as it was sent, shared by the routes that take one: what the
/// description refuses and Codable would let through.
package enum RequestJSON {
    /// The body as `T`, read with MusterJSON's decoder (duplicate keys, bad UTF-8, deep nesting
    /// refused), at most `maxBody` bytes (413 past it), with no control characters, and no `null`
    /// unless the contract sends them (`allowNulls`: OFFLEASH's `walker_id: null` means "any").
    package static func decode<T: Decodable>(_ type: T.Type, from request: Request, maxBody: Int, allowNulls: Bool = false) async throws -> T {
        let buffer = try await request.body.collect(upTo: maxBody)
        let value = try buffer.withUnsafeReadableBytes { try JSONBytesDecoder().decode(T.self, from: $0) }
        if !allowNulls { try refuseNulls(buffer) }
        try refuseControlCharacters(buffer)
        return value
    }

    /// A `null` anywhere in the body: 400 naming the field. The clients leave absent fields out,
    /// and `null` is no value the description allows (Codable would read it as absent).
    package static func refuseNulls(_ body: ByteBuffer) throws {
        guard let pointer = body.withUnsafeReadableBytes({ ControlCharacters.firstNull(inJSON: $0) }) else { return }
        throw APIError(.badRequest, "invalid request body: \(fieldName(pointer)) must not be null (leave an absent field out)")
    }

    /// Control characters in any text of the body: 422 naming the field. (The log checks every
    /// event too, but a blank optional field, `"\r"`, is dropped before it becomes one.)
    package static func refuseControlCharacters(_ body: ByteBuffer) throws {
        guard let pointer = body.withUnsafeReadableBytes({ ControlCharacters.firstField(inJSON: $0) }) else { return }
        throw APIError(.unprocessableContent, "\(fieldName(pointer)) must not contain control characters (tab and newline are allowed)")
    }

    /// `/action/description` → `action.description`, as the answers name fields; `""` is the body.
    static func fieldName(_ pointer: String) -> String {
        let name = pointer.split(separator: "/").joined(separator: ".")
        return name.isEmpty ? "body" : name
    }
}
