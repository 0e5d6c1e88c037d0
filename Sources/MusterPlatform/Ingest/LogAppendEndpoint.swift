import Foundation
import HTTPTypes
import MusterEvents
import MusterJSON
import MusterLog
import MusterNATS
import MusterRuntime

/// `muster.ingest.append`: a validated append over NATS for scripts in any language,
/// `{"type": "app.aggregate.event.vN", "data": {…}, "idempotencyKey": "…"}`, answered with the
/// sequence or an error with an HTTP-like code.
enum LogAppendEndpoint {
    struct Request: Decodable {
        var type: String
        var data: JSONValue
        var idempotencyKey: String?
    }

    struct Reply: Encodable {
        var sequence: UInt64
        var duplicate: Bool
        var subject: String
    }

    static func make(log: EventLog) -> MicroEndpoint {
        MicroEndpoint(name: "append", subject: "muster.ingest.append") { request in
            let (payload, idempotencyKey) = try parse(request.payload, catalog: log.catalog, maxBytes: log.configuration.maxEventBytes)
            do {
                let result = try await log.append(payload, options: AppendOptions(idempotencyKey: idempotencyKey, actor: "nats:ingest"))
                return try JSONEncoder().encode(Reply(sequence: result.sequence, duplicate: result.duplicate, subject: result.subject))
            } catch let error as AppendError {
                // The same codes as over HTTP (AppendError.apiError), the log's own message.
                throw MicroServiceError(code: Int(error.apiError.status.code), error.message)
            }
        }
    }

    /// A request's bytes to the typed event it asks to append (validated when it is appended).
    /// Pure, so the fuzzer reaches it: every refusal is a `MicroServiceError` with a code.
    static func parse(_ bytes: Data, catalog: EventCatalog, maxBytes: Int) throws -> (payload: any EventPayload, idempotencyKey: String?) {
        guard bytes.count <= maxBytes else {
            throw MicroServiceError(code: 413, "request larger than \(maxBytes) bytes")
        }
        let body: Request
        do { body = try JSONBytesDecoder().decode(Request.self, from: bytes) } catch {
            throw MicroServiceError(code: 400, "expected {\"type\": \"app.aggregate.event.vN\", \"data\": {…}}")
        }
        guard let type = EventType(body.type) else { throw MicroServiceError(code: 400, "\(body.type) is not app.aggregate.event.vN") }
        do {
            return (try catalog.decodeData(type, from: try JSONBytesEncoder().encodeData(body.data)), body.idempotencyKey)
        } catch {
            throw MicroServiceError(code: 422, "\(error)")
        }
    }
}
