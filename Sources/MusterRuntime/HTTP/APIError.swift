import Foundation
package import Hummingbird
import Logging
import Metrics
import MusterJSON
import MusterLog
import MusterNATS
import NIOHTTP1

/// An error answer: `{"error": "<human readable message>", "message": <the same>}`. OPL's clients
/// read `error`; OFFLEASH's app reads only a top-level string `message` (and shows "Unknown
/// error" without one); both ignore the other key.
package struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
    package var status: HTTPResponse.Status
    package var message: String
    package var headers: HTTPFields

    package init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    package var description: String { "\(status.code) \(message)" }

    struct Body: Encodable {
        var error: String
        var message: String
    }

    /// Sorted keys: `{"error": …, "message": …}` every time (clients that look for `{"error":` find it first).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let body = try Self.encoder.encode(Body(error: message, message: message))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns every error into the contract's `{"error": …}` body: Hummingbird's own (404 for an
/// unknown route, 413 for an oversized body), decoding failures (400) and unexpected ones (500,
/// logged, with no internals in the answer).
///
/// A path that exists with other methods answers 405 with `Allow` instead of the router's 404.
package struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable?

    package init(routes: RouteTable? = nil) { self.routes = routes }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError where error.status == .notFound && [nil, "NotFound"].contains(context.endpointPath) {
            // The router found no route; does the path exist with another method?
            let allowed = routes?.allowedMethods(at: request.uri.path) ?? []
            guard !allowed.isEmpty else { throw APIError(.notFound, "no route \(request.method) \(request.uri.path.prefix(200))") }
            throw APIError(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))",
                           headers: [.allow: allowed.joined(separator: ", ")])
        } catch let error as HTTPError {
            throw APIError(error.status, error.body ?? error.status.reasonPhrase, headers: error.headers)
        } catch let error as any HTTPMappedError {
            throw error.apiError
        } catch is NATSError {
            // Whatever route met the outage, the answer is the honest 503, never a 500.
            throw APIError.logUnavailable
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid request body: \(Self.describe(error))")
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, error.status.reasonPhrase)
        } catch let error as HTTPParserError where error == .invalidEOFState || error == .closedConnection {
            // The client stopped mid-body (a phone losing its signal, or the body timeout closing a
            // slow one): an everyday event, counted, not an error of ours. Nobody reads the answer.
            context.logger.info("request body ended early", metadata: ["error": "\(error)"])
            Counter(label: "muster_http_bodies_ended_early_total").increment()
            throw APIError(.badRequest, "the request body ended early")
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)"])
            throw APIError(.internalServerError, "internal error")
        }
    }

    /// A decoding error as a client can act on it: the field path (`events.3.duration_ms`) and what is wrong.
    package static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "body" : keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is required"
        case .typeMismatch(_, let context): return "\(path(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) must not be null"
        case .dataCorrupted(let context):
            // Foundation reports "number <7.5> does not fit in Int" without a coding path; say that, not "invalid JSON".
            if context.codingPath.isEmpty, context.debugDescription.contains("does not fit") { return String(context.debugDescription.prefix(200)) }
            if context.codingPath.isEmpty, let json = context.underlyingError as? JSONError { return "not valid JSON: \(json)" }
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)) is invalid"
        @unknown default: return "unreadable"
        }
    }
}
