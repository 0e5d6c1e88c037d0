import Foundation
import MusterEvents
import MusterLog
import MusterNATS
import MusterRuntime

/// ingest: the write side. Apps' write routes mount here as their issues land; today it takes
/// validated appends over NATS (`muster.ingest.append`) for scripts in any language.
public struct IngestService: MusterServiceModule {
    public let name = "ingest"
    public let summary = "validated appends to the log"

    public init() {}

    struct AppendRequest: Decodable {
        var type: String
        var data: JSONValue
        var idempotencyKey: String?
    }

    struct AppendReply: Encodable {
        var sequence: UInt64
        var duplicate: Bool
        var subject: String
    }

    public func endpoints(in environment: MusterEnvironment) -> [MicroEndpoint] {
        [MicroEndpoint(name: "append", subject: "muster.ingest.append") { request in
            guard request.payload.count <= environment.log.configuration.maxEventBytes else {
                throw MicroServiceError(code: 413, "request larger than \(environment.log.configuration.maxEventBytes) bytes")
            }
            let body: AppendRequest
            do { body = try JSONDecoder().decode(AppendRequest.self, from: request.payload) } catch {
                throw MicroServiceError(code: 400, "expected {\"type\": \"app.aggregate.event.vN\", \"data\": {…}}")
            }
            guard let type = EventType(body.type) else { throw MicroServiceError(code: 400, "\(body.type) is not app.aggregate.event.vN") }
            let payload: any EventPayload
            do { payload = try environment.catalog.decodeData(type, from: try JSONEncoder().encode(body.data)) } catch {
                throw MicroServiceError(code: 422, "\(error)")
            }
            do {
                let result = try await environment.log.append(payload, options: AppendOptions(idempotencyKey: body.idempotencyKey,
                                                                                             actor: "nats:ingest"))
                return try JSONEncoder().encode(AppendReply(sequence: result.sequence, duplicate: result.duplicate, subject: result.subject))
            } catch let error as AppendError {
                throw MicroServiceError(code: error.code == .conflict ? 409 : (error.code == .unavailable ? 503 : 422), error.message)
            }
        }]
    }
}
