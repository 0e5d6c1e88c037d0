import Foundation

/// What charges a payment and refunds it: Stripe, Square, or the simulation. Every call carries
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
    /// What the app saved: brand and last four digits (no card number: see README).
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

/// The provider this app's cards can use: OFFLEASH's app collects no card token (no provider SDK),
/// so its cards are metadata a real provider cannot charge. The simulation answers as Stripe's
/// test cards do, by the last four digits: `0002` declined, `9995` insufficient funds, `0069`
/// expired; anything else succeeds. Charges and refunds are idempotent by key.
public actor SimulatedPayments: PaymentProvider {
    public nonisolated let name = "simulated"
    private var charges: [String: PaymentOutcome] = [:]
    private var refunds: [String: PaymentOutcome] = [:]

    public init() {}

    public func charge(_ request: PaymentCharge) async throws -> PaymentOutcome {
        if let earlier = charges[request.idempotencyKey] { return earlier }
        let outcome: PaymentOutcome
        switch request.lastFour {
        case "0002": outcome = PaymentOutcome(succeeded: false, reference: nil, declineMessage: "Your card was declined.")
        case "9995": outcome = PaymentOutcome(succeeded: false, reference: nil, declineMessage: "Your card has insufficient funds.")
        case "0069": outcome = PaymentOutcome(succeeded: false, reference: nil, declineMessage: "Your card has expired.")
        default: outcome = PaymentOutcome(succeeded: true, reference: "sim_ch_" + request.idempotencyKey.prefix(8), declineMessage: nil)
        }
        charges[request.idempotencyKey] = outcome
        return outcome
    }

    public func refund(reference: String, amountCents: Int, idempotencyKey: String) async throws -> PaymentOutcome {
        if let earlier = refunds[idempotencyKey] { return earlier }
        let outcome = PaymentOutcome(succeeded: true, reference: "sim_re_" + idempotencyKey.prefix(8), declineMessage: nil)
        refunds[idempotencyKey] = outcome
        return outcome
    }
}
