import Foundation
import HTTPTypes
package import Hummingbird
import NIOCore

/// A local server that answers like Twilio's Messages API and its SendGrid Mail Send API, for
/// tests and the demo: `POST /2010-04-01/Accounts/<account>/Messages.json` (form `To`, `From`,
/// `Body`, basic auth required) answers 201 with a message `sid`; `POST /v3/mail/send` (SendGrid's
/// JSON, a bearer key required) answers 202. Both record the message; `GET /standin/messages`
/// lists them (a mail with its `subject`), `POST /standin/fail?count=N` makes the next N answer 503.
/// Nothing is sent anywhere.
package enum SMSStandIn {
    package struct Message: Codable, Sendable, Equatable {
        package var to: String
        package var from: String
        package var body: String
        package var subject: String?
        /// A mail's extra headers (`List-Unsubscribe`), as the API took them.
        package var headers: [String: String]?
    }

    /// The part of SendGrid's Mail Send body the stand-in reads.
    struct Mail: Decodable {
        struct Address: Decodable { var email: String }
        struct Personalization: Decodable { var to: [Address] }
        struct Content: Decodable { var type: String; var value: String }
        var personalizations: [Personalization]
        var from: Address
        var subject: String
        var content: [Content]
        var headers: [String: String]?
    }

    package actor Recorder {
        /// The last 10,000 messages, oldest first.
        package var messages: [Message] { kept.items }
        private var kept = RecentList<Message>(keep: 10_000)
        var failures = 0
        package init() {}
        package func failNext(_ count: Int) { failures = max(0, min(count, 1000)) }
        func answer() -> Bool {
            if failures > 0 { failures -= 1; return false }
            return true
        }
        func record(_ message: Message) {
            kept.append(message)
        }
    }

    package static func router(recorder: Recorder) -> Router<BasicRequestContext> {
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
        router.post("/v3/mail/send") { request, _ in
            guard request.headers[.authorization]?.hasPrefix("Bearer ") == true else { return Response(status: .unauthorized) }
            guard await recorder.answer() else { return Response(status: .serviceUnavailable) }
            guard let mail = try? JSONDecoder().decode(Mail.self, from: Data(try await request.body.collect(upTo: 64 * 1024).readableBytesView)),
                  let text = mail.content.first(where: { $0.type == "text/plain" }) else { return Response(status: .badRequest) }
            for to in mail.personalizations.flatMap(\.to) {
                await recorder.record(Message(to: to.email, from: mail.from.email, body: text.value, subject: mail.subject, headers: mail.headers))
            }
            return Response(status: .accepted)
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
