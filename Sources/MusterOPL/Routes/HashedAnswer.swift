package import HTTPTypes
import Hummingbird
import MusterRuntime

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters and -) is a valid field name.
    package static let contentHash = HTTPField.Name("X-Content-Hash")!
}

extension OPLReadModel.Answer {
    /// Whether the client holds this answer: its `hash` parameter or `If-None-Match`.
    func matches(hash clientHash: String?, ifNoneMatch: String?) -> Bool {
        clientHash == hash || ifNoneMatch == "\"\(hash)\"" || ifNoneMatch == hash
    }

    /// 304 with no body when the client already holds this answer (its `hash` parameter or
    /// `If-None-Match`), else 200 with the answer. Both carry `X-Content-Hash` and an `ETag`.
    func response(to request: Request, clientHash: String?) -> Response {
        var headers = self.headers
        if matches(hash: clientHash, ifNoneMatch: request.headers[.ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
