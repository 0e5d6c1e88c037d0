public import Foundation
public import Hummingbird

/// JSON answers with a chosen status (Hummingbird's `ResponseEncodable` always answers 200).
public enum JSONResponse {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    public static func make(_ status: HTTPResponse.Status, _ body: some Encodable, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }
}
