import CompressNIO
import Foundation
package import Hummingbird
import MusterEvents
import MusterJSON
package import MusterRuntime
import NIOFoundationEssentialsCompat

/// `POST /api/analytics/events` and `POST /api/analytics/crashes`: the collector's two routes.
///
/// At most 1 MB on the wire and 1 MB once inflated (`Content-Encoding: gzip`), 500 items. A batch
/// that cannot be read as a whole is refused with a 4xx and stores nothing; otherwise the answer
/// is 200 with what was stored and each refused item by index (partial acceptance).
package enum CollectorRoutes {
    package static let maxBytes = 1 << 20

    /// Any app's key with the scope: what it sends is its own app's.
    package static func add(to routes: Routes<Router<MusterRequestContext>>, collector: Collector) {
        routes.post("/api/analytics/events", access: .key(nil, scope: AnalyticsScopes.writeEvents)) { request, context in
                let client = try context.key()
                let batch = try await decode(WireBatch.self, request)
                let answer = try await mapped { try await collector.collect(batch, app: client.app, actor: client.id, receivedMillis: now()) }
                return try JSONResponse.make(.ok, answer)
            }
        routes.post("/api/analytics/crashes", access: .key(nil, scope: AnalyticsScopes.writeCrashes)) { request, context in
                let client = try context.key()
                let batch = try await decode(WireCrashBatch.self, request)
                let answer = try await mapped { try await collector.collect(batch, app: client.app, actor: client.id, receivedMillis: now()) }
                return try JSONResponse.make(.ok, answer)
            }
    }

    static func now() -> Int64 { Timestamp.millis(Date()) }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let body = try inflate(try await request.body.collect(upTo: maxBytes), encoding: request.headers[.contentEncoding])
        do {
            return try body.withUnsafeReadableBytes { try JSONBytesDecoder().decode(T.self, from: $0) }
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid batch: \(ErrorBodyMiddleware<MusterRequestContext>.describe(error))")
        }
    }

    /// The collector's outage answer: events are stored once by their ids, so the same batch is the retry.
    static let full = APIError(
        .serviceUnavailable,
        "the event log is full; some of this batch may have been stored. Send the same batch again later: each event is stored once by its id",
        headers: [.retryAfter: "60"])

    static let unavailable = APIError(
        .serviceUnavailable,
        "the event log did not confirm this batch; some of it may have been stored. Send the same batch again after a few seconds: each event is stored once by its id",
        headers: [.retryAfter: "5"])

    /// The body as sent (`identity`) or inflated (`gzip`), at most `maxBytes` either way.
    static func inflate(_ body: ByteBuffer, encoding: String?) throws -> ByteBuffer {
        switch encoding?.lowercased() {
        case nil, "identity":
            return body
        case "gzip", "x-gzip":
            var body = body
            do {
                return try body.decompress(with: .gzip, maxSize: maxBytes)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                throw APIError(.contentTooLarge, "the batch is larger than \(maxBytes) bytes once inflated")
            } catch {
                throw APIError(.badRequest, "the body is not valid gzip")
            }
        case let other?:
            throw APIError(.unsupportedMediaType, "Content-Encoding \(other.prefix(40)) is not supported; send gzip or nothing")
        }
    }

    static func mapped(_ body: () async throws -> CollectAnswer) async throws -> CollectAnswer {
        do { return try await body() } catch let error as BatchError {
            switch error.code {
            case .badRequest: throw APIError(.badRequest, error.message)
            case .unprocessable: throw APIError(.unprocessableContent, error.message)
            case .tooLarge: throw APIError(.contentTooLarge, error.message)
            case .unavailable: throw unavailable
            case .full: throw full
            }
        }
    }
}
