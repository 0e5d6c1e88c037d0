package import Hummingbird

/// tRPC's HTTP shape, for the procedures apps built on tRPC call (ShieldAI's
/// `api.notification.registerDevice`): `POST /trpc/<procedure>` with the input as the body, or as
/// `{"json": input}` from a client that uses the superjson transformer; the answer is
/// `{"result":{"data": output}}` (`{"result":{"data":{"json": output}}}`), and a failure is
/// `{"error":{"message","code","data":{"code","httpStatus","path"}}}` (under `json` likewise) with
/// that HTTP status. The procedure's errors are the same ones the REST routes answer with.
/// `access` admits the caller before the body is read, so a caller who may not call gets its 401
/// or 403 (in tRPC's shape) whatever it sent; `authorize` turns the admitted caller into the
/// procedure's (a device's owner, say), also before the body.
package enum TRPC {
    package static func mutation<Caller: Sendable, Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ procedure: String, on routes: Routes<Router<MusterRequestContext>>, access: AccessRule, maxBody: Int,
        authorize: @escaping @Sendable (MusterRequestContext) async throws -> Caller,
        _ handler: @escaping @Sendable (Input, Caller, Request) async throws -> Output
    ) {
        // Admitted here rather than by the route, so a refusal has tRPC's shape too.
        routes.on(.post, "/trpc/\(procedure)", admittingItself: access) { request, context in
            var superjson = false
            do {
                return try await ErrorBodyMiddleware<MusterRequestContext>().handle(request, context: context) { request, context in
                    var context = context
                    context.principal = try access.admit(context.caller)
                    let caller = try await authorize(context)
                    let input = try await RequestJSON.decode(Envelope<Input>.self, from: request, maxBody: maxBody)
                    superjson = input.superjson
                    let output = try await handler(input.value, caller, request)
                    let data: Either<Output> = superjson ? .wrapped(.init(json: output)) : .plain(output)
                    return try JSONResponse.make(.ok, ["result": ["data": data]])
                }
            } catch let error as APIError {
                let failure = Failure(message: error.message, code: jsonRPCCode(error.status.code),
                                      data: .init(code: name(error.status.code), httpStatus: error.status.code, path: procedure))
                let body: Either<Failure> = superjson ? .wrapped(.init(json: failure)) : .plain(failure)
                return try JSONResponse.make(error.status, ["error": body], headers: error.headers)
            }
        }
    }

    /// The input, and whether it came wrapped for superjson (the answer is then wrapped too).
    struct Envelope<Value: Decodable & Sendable>: Decodable, Sendable {
        var value: Value
        var superjson: Bool

        enum Key: String, CodingKey { case json }

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: Key.self), container.contains(.json) {
                value = try container.decode(Value.self, forKey: .json)
                superjson = true
            } else {
                value = try Value(from: decoder)
                superjson = false
            }
        }
    }

    struct Wrapped<Value: Encodable & Sendable>: Encodable, Sendable { var json: Value }

    enum Either<Value: Encodable & Sendable>: Encodable, Sendable {
        case plain(Value)
        case wrapped(Wrapped<Value>)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .plain(let value): try value.encode(to: encoder)
            case .wrapped(let value): try value.encode(to: encoder)
            }
        }
    }

    struct Failure: Encodable, Sendable {
        struct Details: Encodable, Sendable {
            var code: String
            var httpStatus: Int
            var path: String
        }
        var message: String
        var code: Int
        var data: Details
    }

    /// tRPC's error names by HTTP status (`TRPC_ERROR_CODES_BY_KEY` and its HTTP table).
    static func name(_ status: Int) -> String {
        switch status {
        case 400: "BAD_REQUEST"
        case 401: "UNAUTHORIZED"
        case 403: "FORBIDDEN"
        case 404: "NOT_FOUND"
        case 405: "METHOD_NOT_SUPPORTED"
        case 408: "TIMEOUT"
        case 409: "CONFLICT"
        case 412: "PRECONDITION_FAILED"
        case 413: "PAYLOAD_TOO_LARGE"
        case 415: "UNSUPPORTED_MEDIA_TYPE"
        case 422: "UNPROCESSABLE_CONTENT"
        case 429: "TOO_MANY_REQUESTS"
        case 501: "NOT_IMPLEMENTED"
        case 502: "BAD_GATEWAY"
        case 503: "SERVICE_UNAVAILABLE"
        case 504: "GATEWAY_TIMEOUT"
        default: status < 500 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR"
        }
    }

    /// The JSON-RPC code tRPC puts beside the name.
    static func jsonRPCCode(_ status: Int) -> Int {
        switch status {
        case 400: -32600
        case 401: -32001
        case 403: -32003
        case 404: -32004
        case 405: -32005
        case 408: -32008
        case 409: -32009
        case 412: -32012
        case 413: -32013
        case 415: -32015
        case 422: -32022
        case 429: -32029
        default: status < 500 ? -32600 : -32603
        }
    }
}
