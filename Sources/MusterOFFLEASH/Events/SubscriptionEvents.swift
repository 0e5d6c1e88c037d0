package import MusterEvents

/// `offleash.subscription.defined.v1`: a subscription as it now is: a customer's (a plan of
/// walks) or an organisation's own platform plan. The whole record each time. A customer's
/// aggregate is derived from the customer and what they subscribe to, an organisation's from the
/// organisation, so each has one subscription at a time and two requests cannot make two.
package struct SubscriptionDefined: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "subscription", event: "defined", major: 1)
    package static let intervals: Set<String> = ["week", "month", "year"]
    package static let tiers: Set<String> = ["free", "professional", "business", "enterprise"]

    package var subscriptionId: String
    package var orgId: String
    /// The subscriber for a customer's subscription; nil for the organisation's own plan.
    package var customerId: String?
    package var serviceId: String?
    package var name: String
    package var description: String?
    /// `active` or `canceled`.
    package var status: String
    package var priceCents: Int
    package var interval: String
    package var intervalCount: Int
    package var autoCreateBookings: Bool
    package var periodStart: String
    package var periodEnd: String
    package var cancelAtPeriodEnd: Bool
    /// The organisation's plan tier, for its own subscription.
    package var planTier: String?

    package var aggregateID: String { subscriptionId }

    package func validate() throws {
        try Validate.uuid(subscriptionId, field: "/subscriptionId")
        try Validate.uuid(orgId, field: "/orgId")
        if let customerId { try Validate.uuid(customerId, field: "/customerId") }
        if let serviceId { try Validate.uuid(serviceId, field: "/serviceId") }
        try Validate.length(name, 1...100, field: "/name")
        if let description { try Validate.length(description, 1...1000, field: "/description") }
        try Validate.oneOf(status, ["active", "canceled"], field: "/status")
        guard (0...10_000_000).contains(priceCents) else { throw EventValidationError(field: "/priceCents", "must be 0 to 10000000") }
        try Validate.oneOf(interval, Self.intervals, field: "/interval")
        guard (1...52).contains(intervalCount) else { throw EventValidationError(field: "/intervalCount", "must be 1 to 52") }
        try Validate.timestamp(periodStart, field: "/periodStart")
        try Validate.timestamp(periodEnd, field: "/periodEnd")
        if let planTier { try Validate.oneOf(planTier, Self.tiers, field: "/planTier") }
    }
}
