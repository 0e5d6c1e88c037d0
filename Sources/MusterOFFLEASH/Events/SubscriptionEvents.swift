public import MusterEvents

/// `offleash.subscription.defined.v1`: a subscription as it now is: a customer's (a plan of
/// walks) or an organisation's own platform plan. The whole record each time. A customer's
/// aggregate is derived from the customer and what they subscribe to, an organisation's from the
/// organisation, so each has one subscription at a time and two requests cannot make two.
public struct SubscriptionDefined: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "subscription", event: "defined", major: 1)
    public static let intervals: Set<String> = ["week", "month", "year"]
    public static let tiers: Set<String> = ["free", "professional", "business", "enterprise"]

    public var subscriptionId: String
    public var orgId: String
    /// The subscriber for a customer's subscription; nil for the organisation's own plan.
    public var customerId: String?
    public var serviceId: String?
    public var name: String
    public var description: String?
    /// `active` or `canceled`.
    public var status: String
    public var priceCents: Int
    public var interval: String
    public var intervalCount: Int
    public var autoCreateBookings: Bool
    public var periodStart: String
    public var periodEnd: String
    public var cancelAtPeriodEnd: Bool
    /// The organisation's plan tier, for its own subscription.
    public var planTier: String?

    public var aggregateID: String { subscriptionId }

    public func validate() throws {
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
