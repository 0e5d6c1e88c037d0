import Foundation
import MusterEvents

/// What charges a payment and refunds it (`StripePayments`). Every call carries
/// an idempotency key (the transaction's id), so asking twice charges once.
public protocol PaymentProvider: Sendable {
    /// The name the app's `provider_type` shows.
    var name: String { get }
    func charge(_ request: PaymentProvider.Charge) async throws -> PaymentProvider.Outcome
    func refund(reference: String, amountCents: Int, idempotencyKey: String) async throws -> PaymentProvider.Outcome
}

public struct PaymentCharge: Sendable, Equatable {
    public var idempotencyKey: String
    public var amountCents: Int
    /// What the app saved: brand and last four digits (no card number: docs/apps/offleash.md).
    public var brand: String?
    public var lastFour: String?
    public var methodType: String
}

public struct PaymentOutcome: Sendable, Equatable {
    public var succeeded: Bool
    public var reference: String?
    /// A message the customer can act on, for a decline.
    public var declineMessage: String?
}

extension PaymentProvider {
    public typealias Charge = PaymentCharge
    public typealias Outcome = PaymentOutcome
}

/// No provider configured: every charge and refund is refused with 503, saying so.
public struct UnconfiguredPayments: PaymentProvider {
    public let name = "none"
    public init() {}

    public func charge(_ request: PaymentCharge) async throws -> PaymentOutcome {
        throw OFFLEASHError(.providerUnavailable, "Payments are not configured here")
    }

    public func refund(reference: String, amountCents: Int, idempotencyKey: String) async throws -> PaymentOutcome {
        throw OFFLEASHError(.providerUnavailable, "Payments are not configured here")
    }
}
