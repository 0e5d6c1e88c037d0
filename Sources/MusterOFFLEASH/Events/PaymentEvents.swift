package import MusterEvents

/// `offleash.card.saved.v1`: a customer's payment method as the app describes it: metadata only
/// (brand, last four digits, expiry). No card number, code or holder's name ever reaches Muster.
package struct CardSaved: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "card", event: "saved", major: 1)
    package static let methodTypes: Set<String> = ["card", "apple_pay", "bank_account"]

    package var methodId: String
    package var customerId: String
    package var orgId: String
    package var methodType: String
    package var brand: String?
    package var lastFour: String?
    package var expMonth: Int?
    package var expYear: Int?
    package var nickname: String?
    package var isDefault: Bool

    package var aggregateID: String { methodId }

    package func validate() throws {
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
package struct CardChanged: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "card", event: "changed", major: 1)
    package var methodId: String
    package var customerId: String
    /// `removed` or `defaulted`.
    package var change: String

    package var aggregateID: String { methodId }

    package func validate() throws {
        try Validate.uuid(methodId, field: "/methodId")
        try Validate.uuid(customerId, field: "/customerId")
        try Validate.oneOf(change, ["removed", "defaulted"], field: "/change")
    }
}

/// `offleash.payment.priced.v1`: a checkout for one booking, with the whole breakdown. The
/// aggregate is the transaction; a second checkout of the same unpaid booking prices it again.
package struct PaymentPriced: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "payment", event: "priced", major: 1)
    package var transactionId: String
    package var bookingId: String
    package var customerId: String
    package var walkerId: String
    package var orgId: String
    package var subtotalCents: Int
    package var tipCents: Int
    package var feeCents: Int
    /// The customer fee in hundredths of a percent (300: 3 %).
    package var feeBasisPoints: Int
    package var taxCents: Int
    package var totalCents: Int

    package var aggregateID: String { transactionId }

    package func validate() throws {
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
package struct PaymentSettled: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "payment", event: "settled", major: 1)
    package static let outcomes: Set<String> = ["succeeded", "failed", "refunded"]
    package var transactionId: String
    package var outcome: String
    package var methodId: String?
    /// The provider's id of the charge or refund.
    package var providerReference: String?
    package var amountCents: Int
    package var reason: String?

    package var aggregateID: String { transactionId }

    package func validate() throws {
        try Validate.uuid(transactionId, field: "/transactionId")
        try Validate.oneOf(outcome, Self.outcomes, field: "/outcome")
        if let methodId { try Validate.uuid(methodId, field: "/methodId") }
        if let providerReference { try Validate.length(providerReference, 1...200, field: "/providerReference") }
        guard (0...10_000_000).contains(amountCents) else { throw EventValidationError(field: "/amountCents", "must be 0 to 10000000 cents") }
        if let reason { try Validate.length(reason, 1...500, field: "/reason") }
    }
}
