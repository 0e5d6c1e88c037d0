import Foundation
import MusterPlatform
import MusterEvents

struct SubscriptionRequestBody: Decodable {
    var serviceId: String?
    var name: String
    var description: String?
    var priceCents: Int
    var interval: String
    var intervalCount: Int?
    var autoCreateBookings: Bool?
    var preferredDayOfWeek: Int?
    var paymentMethodId: String?

    var request: Walks.SubscriptionRequest {
        Walks.SubscriptionRequest(serviceId: serviceId, name: name, description: description, priceCents: priceCents, interval: interval,
                                  intervalCount: intervalCount, autoCreateBookings: autoCreateBookings)
    }

    enum CodingKeys: String, CodingKey {
        case serviceId = "service_id", name, description, priceCents = "price_cents", interval, intervalCount = "interval_count",
             autoCreateBookings = "auto_create_bookings", preferredDayOfWeek = "preferred_day_of_week", paymentMethodId = "payment_method_id"
    }
}

/// `CustomerSubscription`.
struct CustomerSubscriptionBody: Encodable {
    var id: String
    var serviceId: String?
    var name: String
    var description: String?
    var status: String
    var priceCents: Int
    var interval: String
    var intervalCount: Int
    var currentPeriodStart: String
    var currentPeriodEnd: String
    var cancelAtPeriodEnd: Bool
    var autoCreateBookings: Bool
    var createdAt: String

    init(_ stamped: OFFLEASHProjection.Stamped<SubscriptionDefined>) {
        let s = stamped.value
        (id, serviceId, name, description, status, priceCents) = (s.subscriptionId, s.serviceId, s.name, s.description, s.status, s.priceCents)
        (interval, intervalCount, currentPeriodStart, currentPeriodEnd) = (s.interval, s.intervalCount, s.periodStart, s.periodEnd)
        (cancelAtPeriodEnd, autoCreateBookings, createdAt) = (s.cancelAtPeriodEnd, s.autoCreateBookings, ContractDates.seconds(stamped.createdAt))
    }

    enum CodingKeys: String, CodingKey {
        case id, serviceId = "service_id", name, description, status, priceCents = "price_cents", interval, intervalCount = "interval_count",
             currentPeriodStart = "current_period_start", currentPeriodEnd = "current_period_end", cancelAtPeriodEnd = "cancel_at_period_end",
             autoCreateBookings = "auto_create_bookings", createdAt = "created_at"
    }
}

/// `FeeTier`.
struct FeeTierBody: Encodable {
    var planTier, displayName: String
    var customerFeePercent, providerFeePercent: Double
    var minCustomerFeeCents = 0, minProviderFeeCents = 50, monthlyPriceCents: Int, annualPriceCents: Int
    var features: [String]

    init(_ tier: FeeTier) {
        (planTier, displayName, features) = (tier.tier, tier.displayName, tier.features)
        customerFeePercent = Double(tier.customerFeeBasisPoints) / 100
        providerFeePercent = Double(tier.providerFeeBasisPoints) / 100
        (monthlyPriceCents, annualPriceCents) = (tier.monthlyCents, tier.annualCents)
    }

    enum CodingKeys: String, CodingKey {
        case planTier = "plan_tier", displayName = "display_name", customerFeePercent = "customer_fee_percent", providerFeePercent = "provider_fee_percent",
             minCustomerFeeCents = "min_customer_fee_cents", minProviderFeeCents = "min_provider_fee_cents", monthlyPriceCents = "monthly_price_cents",
             annualPriceCents = "annual_price_cents", features
    }
}

struct TenantSubscriptionRequest: Decodable {
    var planTier: String
    var billingPeriod: String?
    var paymentMethodId: String?
    enum CodingKeys: String, CodingKey { case planTier = "plan_tier", billingPeriod = "billing_period", paymentMethodId = "payment_method_id" }
}

/// `TenantSubscription`.
struct TenantSubscriptionBody: Encodable {
    var id, planTier, status: String
    var monthlyPriceCents, annualPriceCents: Int
    var customerFeePercent, providerFeePercent: Double
    var currentPeriodStart, currentPeriodEnd: String
    var cancelAtPeriodEnd: Bool
    var createdAt: String

    init(_ stamped: OFFLEASHProjection.Stamped<SubscriptionDefined>) {
        let s = stamped.value
        let tier = FeeTier.all.first { $0.tier == s.planTier } ?? FeeTier.all[0]
        (id, planTier, status) = (s.subscriptionId, tier.tier, s.status)
        (monthlyPriceCents, annualPriceCents) = (tier.monthlyCents, tier.annualCents)
        customerFeePercent = Double(tier.customerFeeBasisPoints) / 100
        providerFeePercent = Double(tier.providerFeeBasisPoints) / 100
        (currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd, createdAt) = (s.periodStart, s.periodEnd, s.cancelAtPeriodEnd, ContractDates.seconds(stamped.createdAt))
    }

    enum CodingKeys: String, CodingKey {
        case id, planTier = "plan_tier", status, monthlyPriceCents = "monthly_price_cents", annualPriceCents = "annual_price_cents",
             customerFeePercent = "customer_fee_percent", providerFeePercent = "provider_fee_percent", currentPeriodStart = "current_period_start",
             currentPeriodEnd = "current_period_end", cancelAtPeriodEnd = "cancel_at_period_end", createdAt = "created_at"
    }
}
