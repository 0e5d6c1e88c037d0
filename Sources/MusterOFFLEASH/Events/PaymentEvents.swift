public import MusterEvents

/// `offleash.card.saved.v1`: a customer's payment method as the app describes it: metadata only
/// (brand, last four digits, expiry). No card number, code or holder's name ever reaches Muster.
public struct CardSaved: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "card", event: "saved", major: 1)
    public static let methodTypes: Set<String> = ["card", "apple_pay", "bank_account"]

    public var methodId: String
    public var customerId: String
    public var orgId: String
    public var methodType: String
    public var brand: String?
    public var lastFour: String?
    public var expMonth: Int?
    public var expYear: Int?
    public var nickname: String?
    public var isDefault: Bool

    public var aggregateID: String { methodId }

    public func validate() throws {
        try Validate.uuid(methodId, field: "/methodId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(methodType, Self.methodTypes, field: "/methodType")
        if let brand { try Validate.length(brand, 1...32, field: "/brand") }
        if let lastFour { guard lastFour.count == 4, lastFour.allSatisfy(\.isNumber) else { throw EventValidationError(field: "/lastFour", "must be 4 digits") } }
        if let expMonth, !(1...12).contains(expMonth) { throw EventValidationError(field: "/expMonth", "must be 1 to 12") }
        if let expYear, !(2000...2100).contains(expYear) { throw EventValidationError(field: "/expYear", "must be a four-digit year") }
        if let nickname { try Validate.length(nickname, 1...100, field: "/nickname") }
    }
}

/// `offleash.card.removed.v1` and `offleash.card.defaulted.v1`: a method removed, or made the default.
public struct CardChanged: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "card", event: "changed", major: 1)
    public var methodId: String
    public var customerId: String
    /// `removed` or `defaulted`.
    public var change: String

    public var aggregateID: String { methodId }

    public func validate() throws {
        try Validate.uuid(methodId, field: "/methodId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.oneOf(change, ["removed", "defaulted"], field: "/change")
    }
}

/// `offleash.payment.priced.v1`: a checkout for one booking, with the whole breakdown. The
/// aggregate is the transaction; a second checkout of the same unpaid booking prices it again.
public struct PaymentPriced: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "payment", event: "priced", major: 1)
    public var transactionId: String
    public var bookingId: String
    public var customerId: String
    public var walkerId: String
    public var orgId: String
    public var subtotalCents: Int
    public var tipCents: Int
    public var feeCents: Int
    /// The customer fee in hundredths of a percent (300: 3 %).
    public var feeBasisPoints: Int
    public var taxCents: Int
    public var totalCents: Int

    public var aggregateID: String { transactionId }

    public func validate() throws {
        for (value, field) in [(transactionId, "/transactionId"), (bookingId, "/bookingId"), (customerId, "/customerId"), (walkerId, "/walkerId"), (orgId, "/orgId")] {
            try Validate.uuid(value, field: field)
        }
        for (value, field) in [(subtotalCents, "/subtotalCents"), (tipCents, "/tipCents"), (feeCents, "/feeCents"), (taxCents, "/taxCents"), (totalCents, "/totalCents")] {
            guard (0...10_000_000).contains(value) else { throw EventValidationError(field: field, "must be 0 to 10000000 cents") }
        }
        guard totalCents == subtotalCents + tipCents + feeCents + taxCents else { throw EventValidationError(field: "/totalCents", "must be the sum of its parts") }
        guard (0...10_000).contains(feeBasisPoints) else { throw EventValidationError(field: "/feeBasisPoints", "must be 0 to 10000") }
    }
}

/// `offleash.payment.settled.v1`: the provider's answer to the charge (`succeeded`, `failed`)
/// or to the refund (`refunded`), recorded after the provider answered.
public struct PaymentSettled: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "payment", event: "settled", major: 1)
    public static let outcomes: Set<String> = ["succeeded", "failed", "refunded"]
    public var transactionId: String
    public var outcome: String
    public var methodId: String?
    /// The provider's id of the charge or refund.
    public var providerReference: String?
    public var amountCents: Int
    public var reason: String?

    public var aggregateID: String { transactionId }

    public func validate() throws {
        try Validate.uuid(transactionId, field: "/transactionId")
        try Validate.oneOf(outcome, Self.outcomes, field: "/outcome")
        if let methodId { try Validate.uuid(methodId, field: "/methodId") }
        if let providerReference { try Validate.length(providerReference, 1...200, field: "/providerReference") }
        guard (0...10_000_000).contains(amountCents) else { throw EventValidationError(field: "/amountCents", "must be 0 to 10000000 cents") }
        if let reason { try Validate.length(reason, 1...500, field: "/reason") }
    }
}
