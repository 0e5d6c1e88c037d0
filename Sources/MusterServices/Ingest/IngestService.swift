import Foundation
import Hummingbird
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterPlatform
import MusterRuntime
import ServiceLifecycle

/// ingest: the write side. It mounts the apps' write routes (OPL: strike submissions, GPS
/// snapshots, DNS-filter stats) and takes validated appends over NATS (`muster.ingest.append`)
/// for scripts in any language.
public struct IngestService: MusterServiceModule {
    public let name = "ingest"
    public let summary = "validated appends to the log"
    let shared: SharedParts
    var platform: PlatformKit { shared.platform }
    var opl: OPLKit { shared.opl }

    public init(_ shared: SharedParts) { self.shared = shared }

    public func services(in environment: MusterEnvironment) -> [any Service] {
        shared.runners
    }

    public func addRoutes(to routes: Routes<Router<MusterRequestContext>>, environment: MusterEnvironment) {
        MobileWriteRoutes.add(to: routes, keys: platform.directory, rate: opl.writeRate, opl: opl.runner, log: environment.log)
    }

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
