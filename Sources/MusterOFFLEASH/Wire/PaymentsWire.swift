import Foundation
import MusterPlatform
import MusterEvents

/// `POST /payment-methods`: a card's metadata (never its number), or Apple Pay with nothing else.
struct CardRequest: Decodable {
    var methodType: String
    var cardLastFour: String?
    var cardBrand: String?
    var cardExpMonth: Int?
    var cardExpYear: Int?
    var nickname: String?
    var isDefault: Bool?
    enum CodingKeys: String, CodingKey {
        case methodType = "method_type", cardLastFour = "card_last_four", cardBrand = "card_brand", cardExpMonth = "card_exp_month",
             cardExpYear = "card_exp_year", nickname, isDefault = "is_default"
    }
}

/// `PaymentMethod`, with the row title composed here (`Visa •••• 4242`, `Apple Pay`).
struct CardBody: Encodable {
    var id: String
    var methodType: String
    var displayName: String
    var cardLastFour: String?
    var cardBrand: String?
    var cardExpMonth: Int?
    var cardExpYear: Int?
    var nickname: String?
    var isDefault: Bool
    var isExpired: Bool
    var createdAt: String

    init(_ card: OFFLEASHProjection.Card, now: Date = Date()) {
        let c = card.saved
        (id, methodType, cardLastFour, cardBrand, cardExpMonth, cardExpYear, nickname, isDefault) =
            (c.methodId, c.methodType, c.lastFour, c.brand, c.expMonth, c.expYear, c.nickname, c.isDefault)
        let brandName = ["visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "american express": "American Express",
                         "discover": "Discover"][c.brand ?? ""] ?? "Card"
        displayName = switch c.methodType {
        case "apple_pay": "Apple Pay"
        case "bank_account": "Bank account"
        default: "\(brandName) •••• \(c.lastFour ?? "????")"
        }
        if let month = c.expMonth, let year = c.expYear {
            let utc = SeriesPlan.utc
            let parts = utc.dateComponents([.year, .month], from: now)
            isExpired = (year, month) < (parts.year ?? 0, parts.month ?? 0)
        } else {
            isExpired = false
        }
        createdAt = ContractDates.seconds(card.createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, methodType = "method_type", displayName = "display_name", cardLastFour = "card_last_four", cardBrand = "card_brand",
             cardExpMonth = "card_exp_month", cardExpYear = "card_exp_year", nickname, isDefault = "is_default", isExpired = "is_expired",
             createdAt = "created_at"
    }
}

struct PreviewRequest: Decodable {
    var subtotalCents: Int
    var tipCents: Int?
    enum CodingKeys: String, CodingKey { case subtotalCents = "subtotal_cents", tipCents = "tip_cents" }
}

struct PreviewBody: Encodable {
    var subtotalCents, tipCents, customerFeeCents, taxCents, totalCents: Int
    var customerFeePercent: Double
    var taxRatePercent = 0.0

    init(_ price: PriceBreakdown) {
        (subtotalCents, tipCents, customerFeeCents, taxCents, totalCents) = (price.subtotalCents, price.tipCents, price.feeCents, price.taxCents, price.totalCents)
        customerFeePercent = Double(price.feeBasisPoints) / 100
    }

    enum CodingKeys: String, CodingKey {
        case subtotalCents = "subtotal_cents", tipCents = "tip_cents", customerFeeCents = "customer_fee_cents", taxCents = "tax_cents",
             totalCents = "total_cents", customerFeePercent = "customer_fee_percent", taxRatePercent = "tax_rate_percent"
    }
}

struct CheckoutRequest: Decodable {
    var bookingId: String
    var paymentMethodId: String?
    var subtotalCents: Int?
    var tipCents: Int?
    var providerUserId: String?
    enum CodingKeys: String, CodingKey {
        case bookingId = "booking_id", paymentMethodId = "payment_method_id", subtotalCents = "subtotal_cents", tipCents = "tip_cents",
             providerUserId = "provider_user_id"
    }
}

struct ConfirmRequest: Decodable {
    var paymentMethodId: String
    enum CodingKeys: String, CodingKey { case paymentMethodId = "payment_method_id" }
}

/// `CheckoutResponse`.
struct CheckoutBody: Encodable {
    var transactionId: String
    var status: String
    var subtotalCents, customerFeeCents, taxCents, totalCents: Int
    var providerType: String
    var paymentId: String?

    init(_ transaction: OFFLEASHProjection.Transaction, provider: String) {
        let p = transaction.priced
        (transactionId, status, subtotalCents, customerFeeCents, taxCents, totalCents) =
            (p.transactionId, TransactionBody.status(transaction.status), p.subtotalCents, p.feeCents, p.taxCents, p.totalCents)
        providerType = provider
        paymentId = transaction.providerReference
    }

    enum CodingKeys: String, CodingKey {
        case transactionId = "transaction_id", status, subtotalCents = "subtotal_cents", customerFeeCents = "customer_fee_cents",
             taxCents = "tax_cents", totalCents = "total_cents", providerType = "provider_type", paymentId = "payment_id"
    }
}

struct RefundBody: Encodable {
    var success = true
    var refundId: String?
    var refundAmountCents: Int
    var status = "refunded"
    enum CodingKeys: String, CodingKey { case success, refundId = "refund_id", refundAmountCents = "refund_amount_cents", status }
}

/// `Transaction` (the detail) and the list's rows: `status` from the detail's strict set.
struct TransactionBody: Encodable {
    var id: String
    var bookingId: String
    var status: String
    var subtotalCents, customerFeeCents, taxCents, totalCents, providerPayoutCents, tipCents: Int
    var createdAt: String
    var completedAt: String?
    var isCustomer: Bool

    init(_ transaction: OFFLEASHProjection.Transaction, caller: String) {
        let p = transaction.priced
        (id, bookingId, status) = (p.transactionId, p.bookingId, Self.status(transaction.status))
        (subtotalCents, customerFeeCents, taxCents, totalCents, tipCents) = (p.subtotalCents, p.feeCents, p.taxCents, p.totalCents, p.tipCents)
        providerPayoutCents = p.subtotalCents + p.tipCents // the fee is the customer's, the tip all the walker's
        createdAt = ContractDates.seconds(transaction.createdAt)
        completedAt = transaction.completedAt.map(ContractDates.seconds)
        isCustomer = p.customerId == caller
    }

    /// `pending`, `succeeded`, `failed`, `refunded`: all in the detail's strict enum.
    static func status(_ status: String) -> String { status }

    enum CodingKeys: String, CodingKey {
        case id, bookingId = "booking_id", status, subtotalCents = "subtotal_cents", customerFeeCents = "customer_fee_cents", taxCents = "tax_cents",
             totalCents = "total_cents", providerPayoutCents = "provider_payout_cents", tipCents = "tip_cents", createdAt = "created_at",
             completedAt = "completed_at", isCustomer = "is_customer"
    }
}
