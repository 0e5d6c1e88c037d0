import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore

/// A local server that answers like Twilio's Messages API, for tests and the demo:
/// `POST /2010-04-01/Accounts/<account>/Messages.json` (form `To`, `From`, `Body`, basic auth
/// required) answers 201 with a message `sid` and records the message; `GET /standin/messages`
/// lists them, `POST /standin/fail?count=N` makes the next N answer 503. No text is sent anywhere.
public enum SMSStandIn {
    public struct Message: Codable, Sendable, Equatable {
        public var to: String
        public var from: String
        public var body: String
    }

    public actor Recorder {
        public private(set) var messages: [Message] = []
        var failures = 0
        public init() {}
        public func failNext(_ count: Int) { failures = max(0, min(count, 1000)) }
        func answer() -> Bool {
            if failures > 0 { failures -= 1; return false }
            return true
        }
        func record(_ message: Message) {
            messages.append(message)
            if messages.count > 10_000 { messages.removeFirst() }
        }
    }

    public static func router(recorder: Recorder) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/2010-04-01/Accounts/:account/Messages.json") { request, _ in
            guard request.headers[.authorization]?.hasPrefix("Basic ") == true else { return Response(status: .unauthorized) }
            guard await recorder.answer() else { return Response(status: .serviceUnavailable) }
            let form = String(buffer: try await request.body.collect(upTo: 16 * 1024))
            var fields: [String: String] = [:]
            for pair in form.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard let to = fields["To"], let from = fields["From"], let body = fields["Body"] else { return Response(status: .badRequest) }
            await recorder.record(Message(to: to, from: from, body: body))
            let answer = try JSONEncoder().encode(["sid": "SM" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(), "status": "queued"])
            return Response(status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: answer)))
        }
        router.get("/standin/messages") { _, _ in
            let body = try JSONEncoder().encode(await recorder.messages)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.post("/standin/fail") { request, _ in
            await recorder.failNext(Int(request.uri.queryParameters.get("count") ?? "1") ?? 1)
            return Response(status: .noContent)
        }
        return router
    }
}
