import Foundation
import MusterEvents

/// What charges a payment and refunds it (`StripePayments`). Every call carries
/// an idempotency key (the transaction's id), so asking twice charges once.
package protocol PaymentProvider: Sendable {
    /// The name the app's `provider_type` shows.
    var name: String { get }
    func charge(_ request: PaymentProvider.Charge) async throws -> PaymentProvider.Outcome
    func refund(reference: String, amountCents: Int, idempotencyKey: String) async throws -> PaymentProvider.Outcome
}

package struct PaymentCharge: Sendable, Equatable {
    package var idempotencyKey: String
    package var amountCents: Int
    /// What the app saved: brand and last four digits (no card number: docs/apps/offleash.md).
    package var brand: String?
    package var lastFour: String?
    package var methodType: String
}

package struct PaymentOutcome: Sendable, Equatable {
    package var succeeded: Bool
    package var reference: String?
    /// A message the customer can act on, for a decline.
    package var declineMessage: String?
}

extension PaymentProvider {
    package typealias Charge = PaymentCharge
    package typealias Outcome = PaymentOutcome
}

/// No provider configured: every charge and refund is refused with 503, saying so.
package struct UnconfiguredPayments: PaymentProvider {
    package let name = "none"
    package init() {}

    package func charge(_ request: PaymentCharge) async throws -> PaymentOutcome {
        throw OFFLEASHError(.providerUnavailable, "Payments are not configured here")
    }

    package func refund(reference: String, amountCents: Int, idempotencyKey: String) async throws -> PaymentOutcome {
        throw OFFLEASHError(.providerUnavailable, "Payments are not configured here")
    }
}
