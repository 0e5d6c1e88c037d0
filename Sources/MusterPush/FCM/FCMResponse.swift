import MusterJSON

/// What one answer from FCM HTTP v1 means for that copy: the `errorCode` in the error's details
/// decides (`UNREGISTERED` invalidates the token), then the status. Pure.
package enum FCMResponse {
    struct ErrorBody: Decodable {
        struct Failure: Decodable {
            struct Detail: Decodable { var errorCode: String? }
            var status: String?
            var details: [Detail]?
        }
        var error: Failure?
    }

    struct Sent: Decodable { var name: String? }

    package static let maxBody = 16 * 1024

    package static func outcome(status: Int, body: [UInt8]) -> APNsOutcome {
        if status == 200 {
            let name = body.count <= maxBody ? (try? JSONBytesDecoder().decode(Sent.self, from: body))?.name : nil
            return .delivered(apnsID: name.flatMap { $0.utf8.count <= 200 ? $0 : nil })
        }
        let parsed = body.count <= maxBody ? (try? JSONBytesDecoder().decode(ErrorBody.self, from: body))?.error : nil
        let code = parsed?.details?.compactMap(\.errorCode).first ?? parsed?.status
        let reason = code.flatMap(clean) ?? "HTTP\(status)"
        switch (status, reason) {
        case (_, "UNREGISTERED"), (404, _):
            return .refused(reason: reason, status: status, invalidatesToken: true, since: nil)
        case (401, _):
            return .renewToken
        case (429, _), (500...599, _), (_, "UNAVAILABLE"), (_, "INTERNAL"), (_, "QUOTA_EXCEEDED"):
            return .retry(reason: reason, status: status)
        default:
            return .refused(reason: reason, status: status, invalidatesToken: false, since: nil)
        }
    }

    static func clean(_ code: String) -> String? {
        (1...64).contains(code.utf8.count) && code.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || $0 == 95 || ($0 >= 48 && $0 <= 57) }) ? code : nil
    }
}
