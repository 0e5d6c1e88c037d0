package import AsyncHTTPClient
import Foundation
import MusterEvents
import NIOCore
import NIOHTTP1

/// Charges and refunds through Stripe's API: `POST /v1/payment_intents` (confirmed at once, no
/// redirects) and `POST /v1/refunds`, form-encoded, a secret key as bearer, the transaction as
/// `Idempotency-Key` (asked twice, Stripe answers the first result). The real Stripe with a
/// test key, or `muster-standins payments`, which answers the same way, through this code.
///
/// The app collects no card token, so a charge names one of Stripe's test payment methods by the
/// card's last four digits (`pm_card_chargeDeclined` for 0002, …); production needs a payment
/// method saved with Stripe's own card form (docs/apps/offleash.md, "Payments").
package struct StripePayments: PaymentProvider {
    package let name = "stripe"
    package let baseURL: String
    let key: String
    let http: HTTPClient

    package init(baseURL: String, key: String, http: HTTPClient = .shared) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.key = key
        self.http = http
    }

    /// Stripe's test payment methods for the test cards' last four digits.
    static func testMethod(_ lastFour: String?) -> String {
        switch lastFour {
        case "0002": "pm_card_chargeDeclined"
        case "9995": "pm_card_chargeDeclinedInsufficientFunds"
        case "0069": "pm_card_chargeDeclinedExpiredCard"
        case "0119": "pm_card_chargeDeclinedProcessingError"
        default: "pm_card_visa"
        }
    }

    package func charge(_ request: PaymentCharge) async throws -> PaymentOutcome {
        let form = [("amount", String(request.amountCents)), ("currency", "usd"), ("confirm", "true"),
                    ("payment_method", Self.testMethod(request.lastFour)), ("automatic_payment_methods[enabled]", "true"),
                    ("automatic_payment_methods[allow_redirects]", "never"), ("metadata[transaction_id]", request.idempotencyKey)]
        return try await post("/v1/payment_intents", form, idempotencyKey: request.idempotencyKey)
    }

    package func refund(reference: String, amountCents: Int, idempotencyKey: String) async throws -> PaymentOutcome {
        try await post("/v1/refunds", [("payment_intent", reference), ("amount", String(amountCents))], idempotencyKey: idempotencyKey)
    }

    struct Answer: Decodable {
        struct Failure: Decodable { var message: String? }
        var id: String?
        var status: String?
        var error: Failure?
    }

    func post(_ path: String, _ form: [(String, String)], idempotencyKey: String) async throws -> PaymentOutcome {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form.map { "\(Self.formEncode($0))=\(Self.formEncode($1))" }.joined(separator: "&")))
        let unavailable = OFFLEASHError(.providerUnavailable, "The payment service could not be reached; try again")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .seconds(30))
            body = try await response.body.collect(upTo: 256 * 1024)
        } catch {
            throw unavailable
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView))
        switch response.status.code {
        case 200..<300 where answer?.status == "succeeded":
            return PaymentOutcome(succeeded: true, reference: answer?.id, declineMessage: nil)
        case 200..<300, 402:
            // A card error (402), or an intent that did not succeed: declined, with Stripe's message for the customer.
            return PaymentOutcome(succeeded: false, reference: answer?.id, declineMessage: answer?.error?.message ?? "The payment was declined")
        default:
            // 401 (a wrong key), 400 (a request Stripe refuses), 429, 5xx: nothing the customer can fix.
            throw unavailable
        }
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
