package import Foundation
package import Hummingbird
package import MusterJSON

/// JSON answers with a chosen status (Hummingbird's `ResponseEncodable` always answers 200).
package enum JSONResponse {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A body that lays out its own members (`JSONObjectEncodable`) is written by MusterJSON
    /// (the same bytes, without `Codable`); any other by Foundation's encoder.
    package static func make(_ status: HTTPResponse.Status, _ body: some Encodable, headers: HTTPFields = [:]) throws -> Response {
        if body is any JSONObjectEncodable { return response(status, try JSONBytesEncoder().encode(body), headers: headers) }
        return response(status, try encoder.encode(body), headers: headers)
    }

    /// The same answer written by MusterJSON's encoder: for strings, whole numbers, booleans,
    /// arrays and objects the bytes `encoder` writes, several times faster. For the big answers of
    /// hot routes (a sync batch's 500 results) through `Codable`; answers that lay out their own
    /// members (the sign-in answers) need not ask, and the others keep Foundation's.
    package static func make(_ status: HTTPResponse.Status, _ body: some Encodable, writtenBy writer: JSONBytesEncoder, headers: HTTPFields = [:]) throws -> Response {
        response(status, try writer.encode(body), headers: headers)
    }

    /// Whether the request's `If-None-Match` names `etag` (strong or weak) or `*`: the client's copy
    /// is current, and the answer is 304.
    package static func isCurrent(_ request: Request, etag: String) -> Bool {
        let presented = request.headers[.ifNoneMatch]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        return presented.contains(etag) || presented.contains("W/" + etag) || presented.contains("*")
    }

    private static func response(_ status: HTTPResponse.Status, _ bytes: some Sequence<UInt8>, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
