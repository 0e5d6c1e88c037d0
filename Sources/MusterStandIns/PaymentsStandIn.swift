import Foundation
import HTTPTypes
package import Hummingbird
import NIOCore

/// A local server that answers like Stripe's API for what `StripePayments` calls, for tests and
/// the demo: `POST /v1/payment_intents` (form; a bearer key required; confirmed at once) charges
/// Stripe's test payment methods as Stripe does (`pm_card_visa` succeeds; `pm_card_chargeDeclined`,
/// `…InsufficientFunds`, `…ExpiredCard`, `…ProcessingError` are 402 card errors), `POST /v1/refunds`
/// refunds a succeeded intent up to its amount; both replay the first answer for a repeated
/// `Idempotency-Key`, as Stripe does. `GET /standin/payments` lists intents and refunds;
/// `POST /standin/fail?count=N` makes the next N calls answer 500. No money moves anywhere.
package enum PaymentsStandIn {
    package struct Intent: Codable, Sendable, Equatable {
        package var id: String
        package var amount: Int
        package var paymentMethod: String
        package var status: String
        package var refunded: Int
    }

    package actor Ledger {
        package private(set) var intents: [String: Intent] = [:]
        package private(set) var refunds: [String: Int] = [:]
        var replies: [String: (UInt16, Data)] = [:]
        var failures = 0
        package init() {}

        package func failNext(_ count: Int) { failures = max(0, min(count, 1000)) }

        func failing() -> Bool {
            if failures > 0 { failures -= 1; return true }
            return false
        }

        enum Call: Sendable {
            case charge(amount: Int, method: String)
            case refund(intent: String, amount: Int?)
        }

        /// The first answer to this key, or the call's, kept for the key: within the actor, so
        /// two requests with one key at once charge once.
        func answer(_ key: String?, _ call: Call) -> (UInt16, Data) {
            if let key, let earlier = replies[key] { return earlier }
            let reply = switch call {
            case .charge(let amount, let method): charge(amount: amount, method: method)
            case .refund(let intent, let amount): refund(intent: intent, amount: amount)
            }
            if let key { replies[key] = reply }
            return reply
        }

        func charge(amount: Int, method: String) -> (UInt16, Data) {
            let declines = ["pm_card_chargeDeclined": ("generic_decline", "Your card was declined."),
                            "pm_card_chargeDeclinedInsufficientFunds": ("insufficient_funds", "Your card has insufficient funds."),
                            "pm_card_chargeDeclinedExpiredCard": ("expired_card", "Your card has expired."),
                            "pm_card_chargeDeclinedProcessingError": ("processing_error", "An error occurred while processing your card. Try again in a little bit.")]
            guard amount >= 50, amount <= 99_999_999 else { return PaymentsStandIn.invalid("Amount must be between 50 and 99999999 cents") }
            guard method == "pm_card_visa" || declines[method] != nil else { return PaymentsStandIn.invalid("No such PaymentMethod: '\(method)'") }
            let id = "pi_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
            if let (code, message) = declines[method] {
                intents[id] = Intent(id: id, amount: amount, paymentMethod: method, status: "requires_payment_method", refunded: 0)
                return (402, PaymentsStandIn.json(["error": ["type": "card_error", "code": code == "expired_card" ? "expired_card" : "card_declined",
                                                             "decline_code": code, "message": message,
                                                             "payment_intent": ["id": id, "status": "requires_payment_method"]]]))
            }
            intents[id] = Intent(id: id, amount: amount, paymentMethod: method, status: "succeeded", refunded: 0)
            return (200, PaymentsStandIn.json(["id": id, "object": "payment_intent", "amount": amount, "currency": "usd", "status": "succeeded"]))
        }

        func refund(intent id: String, amount: Int?) -> (UInt16, Data) {
            guard var intent = intents[id], intent.status == "succeeded" else { return PaymentsStandIn.invalid("No such payment_intent: '\(id)'") }
            let amount = amount ?? intent.amount - intent.refunded
            guard amount > 0, intent.refunded + amount <= intent.amount else {
                return (400, PaymentsStandIn.json(["error": ["type": "invalid_request_error", "code": "charge_already_refunded",
                                                             "message": "Charge \(id) has already been refunded."]]))
            }
            intent.refunded += amount
            intents[id] = intent
            let refundId = "re_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
            refunds[refundId] = amount
            return (200, PaymentsStandIn.json(["id": refundId, "object": "refund", "amount": amount, "payment_intent": id, "status": "succeeded"]))
        }
    }

    package static func router(ledger: Ledger) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/v1/payment_intents") { request, _ in
            try await answer(request, ledger) { form in .charge(amount: Int(form["amount"] ?? "") ?? 0, method: form["payment_method"] ?? "") }
        }
        router.post("/v1/refunds") { request, _ in
            try await answer(request, ledger) { form in .refund(intent: form["payment_intent"] ?? "", amount: form["amount"].flatMap { Int($0) }) }
        }
        router.get("/standin/payments") { _, _ in
            let body = json(["intents": await ledger.intents.values.sorted { $0.id < $1.id }.map { ["id": $0.id, "amount": $0.amount, "status": $0.status,
                                                                                                   "refunded": $0.refunded] as [String: Any] }])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.post("/standin/fail") { request, _ in
            await ledger.failNext(Int(request.uri.queryParameters.get("count") ?? "1") ?? 1)
            return Response(status: .noContent)
        }
        return router
    }

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")

    static func answer(_ request: Request, _ ledger: Ledger, _ call: ([String: String]) -> Ledger.Call) async throws -> Response {
        guard request.headers[.authorization]?.hasPrefix("Bearer sk_") == true else {
            return reply((401, json(["error": ["type": "invalid_request_error", "message": "Invalid API Key provided"]])))
        }
        if await ledger.failing() { return reply((500, json(["error": ["type": "api_error", "message": "An unknown error occurred"]]))) }
        let text = String(buffer: try await request.body.collect(upTo: 16 * 1024))
        var form: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { form[parts[0]] = parts[1] }
        }
        let key = idempotencyKey.flatMap { request.headers[$0] }.map { "\(request.uri.path)\n\($0)" }
        return reply(await ledger.answer(key, call(form)))
    }

    static func reply(_ reply: (UInt16, Data)) -> Response {
        Response(status: HTTPResponse.Status(code: Int(reply.0)), headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(bytes: reply.1)))
    }

    static func invalid(_ message: String) -> (UInt16, Data) {
        (400, json(["error": ["type": "invalid_request_error", "message": message]]))
    }

    static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
