package import Foundation
import MusterEvents
import MusterLog
package import MusterPlatform

/// A platform plan an organisation can be on: its fees and prices (the repo's seeded tiers).
package struct FeeTier: Sendable, Equatable {
    package var tier: String
    package var displayName: String
    package var customerFeeBasisPoints: Int
    package var providerFeeBasisPoints: Int
    package var monthlyCents: Int
    package var annualCents: Int
    package var features: [String]

    package static let all = [
        FeeTier(tier: "free", displayName: "Free", customerFeeBasisPoints: 300, providerFeeBasisPoints: 2000, monthlyCents: 0, annualCents: 0,
                features: ["Basic scheduling"]),
        FeeTier(tier: "professional", displayName: "Professional", customerFeeBasisPoints: 200, providerFeeBasisPoints: 1500, monthlyCents: 2900,
                annualCents: 29000, features: ["Unlimited bookings"]),
        FeeTier(tier: "business", displayName: "Business", customerFeeBasisPoints: 100, providerFeeBasisPoints: 1000, monthlyCents: 7900,
                annualCents: 79000, features: ["Unlimited bookings", "Multiple walkers"]),
        FeeTier(tier: "enterprise", displayName: "Enterprise", customerFeeBasisPoints: 50, providerFeeBasisPoints: 500, monthlyCents: 0,
                annualCents: 0, features: ["Custom pricing"]),
    ]
}

extension Walks {
    package struct SubscriptionRequest: Sendable {
        package var serviceId: String?
        package var name: String
        package var description: String?
        package var priceCents: Int
        package var interval: String
        package var intervalCount: Int?
        package var autoCreateBookings: Bool?
    }

    /// The caller's subscriptions, newest first.
    package func customerSubscriptions(_ claims: AccessClaims) async -> [OFFLEASHProjection.Stamped<SubscriptionDefined>] {
        await runner.read { state in state.subscriptions.values.filter { stamped in stamped.value.customerId.map { claims.owns($0, in: stamped.value.orgId) } == true } }
            .sorted { $0.sequence > $1.sequence }
    }

    package func customerSubscription(_ claims: AccessClaims, id: String) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined> {
        guard let found = await runner.read({ $0.subscriptions[id] }), found.value.customerId.map({ claims.owns($0) }) == true else {
            throw OFFLEASHError(.notFound, "no subscription \(id.prefix(64))")
        }
        return found
    }

    /// Subscribes the caller: one active subscription per customer and plan (the same plan asked
    /// again, or twice at once, is the one subscription).
    package func subscribe(_ claims: AccessClaims, _ request: SubscriptionRequest, now: Date = Date()) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined> {
        guard SubscriptionDefined.intervals.contains(request.interval) else { throw OFFLEASHError(.invalidField("interval"), "interval must be week, month or year") }
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let serviceId = request.serviceId {
            guard claims.belongs(to: await runner.read({ $0.services[serviceId]?.orgId })) else { throw OFFLEASHError(.notFound, "no service \(serviceId.prefix(64))") }
        }
        let id = Self.derivedID("subscription", claims.personId, request.serviceId ?? "", name.lowercased())
        let (start, end) = Self.period(from: now, interval: request.interval, count: request.intervalCount ?? 1)
        let defined = SubscriptionDefined(subscriptionId: id, orgId: claims.org, customerId: claims.personId, serviceId: request.serviceId, name: name,
                                          description: request.description?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty, status: "active",
                                          priceCents: request.priceCents, interval: request.interval, intervalCount: request.intervalCount ?? 1,
                                          autoCreateBookings: request.autoCreateBookings ?? false, periodStart: start, periodEnd: end, cancelAtPeriodEnd: false)
        return try await define(defined, actor: claims.personId) { existing in existing?.value.status == "active" }
    }

    /// Cancels at the end of the period: access goes on until then.
    package func cancelCustomerSubscription(_ claims: AccessClaims, id: String) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined> {
        var changed = try await customerSubscription(claims, id: id).value
        changed.cancelAtPeriodEnd = true
        return try await define(changed, actor: claims.personId) { $0?.value.cancelAtPeriodEnd == true }
    }

    /// The organisation's own plan; owners and admins.
    package func tenantSubscription(_ claims: AccessClaims) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined>? {
        try requireRole(claims, .admin)
        return await runner.read { $0.subscriptions[Self.derivedID("tenant-subscription", claims.org)] }
    }

    package func subscribeTenant(_ claims: AccessClaims, tier: String, billingPeriod: String, now: Date = Date()) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined> {
        try requireRole(claims, .admin)
        guard let plan = FeeTier.all.first(where: { $0.tier == tier }) else { throw OFFLEASHError(.invalidField("plan_tier"), "plan_tier must be free, professional, business or enterprise") }
        guard ["monthly", "annual"].contains(billingPeriod) else { throw OFFLEASHError(.invalidField("billing_period"), "billing_period must be monthly or annual") }
        let interval = billingPeriod == "annual" ? "year" : "month"
        let (start, end) = Self.period(from: now, interval: interval, count: 1)
        let defined = SubscriptionDefined(subscriptionId: Self.derivedID("tenant-subscription", claims.org), orgId: claims.org, customerId: nil, serviceId: nil,
                                          name: plan.displayName, description: nil, status: "active",
                                          priceCents: billingPeriod == "annual" ? plan.annualCents : plan.monthlyCents, interval: interval, intervalCount: 1,
                                          autoCreateBookings: false, periodStart: start, periodEnd: end, cancelAtPeriodEnd: false, planTier: plan.tier)
        return try await define(defined, actor: claims.personId) { $0?.value.status == "active" && $0?.value.planTier == tier }
    }

    package func cancelTenantSubscription(_ claims: AccessClaims) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined> {
        guard var current = try await tenantSubscription(claims)?.value else { throw OFFLEASHError(.notFound, "the organisation has no subscription") }
        current.cancelAtPeriodEnd = true
        return try await define(current, actor: claims.personId) { $0?.value.cancelAtPeriodEnd == true }
    }

    /// Appends `defined` expecting the aggregate as read, unless `unchanged` says what is there
    /// already is the answer; the loser of a race answers what the winner stored.
    func define(_ defined: SubscriptionDefined, actor: String,
                unchanged: (OFFLEASHProjection.Stamped<SubscriptionDefined>?) -> Bool) async throws -> OFFLEASHProjection.Stamped<SubscriptionDefined> {
        let id = defined.subscriptionId
        let existing = await runner.read { $0.subscriptions[id] }
        if let existing, unchanged(existing) { return existing }
        do {
            try await append(defined, actor: actor, options: AppendOptions(expected: existing.map { .at($0.sequence) } ?? .noEvents))
        } catch let error as AppendError where error.code == .conflict {
            try await catchUp()
        }
        guard let stored = await runner.read({ $0.subscriptions[id] }) else { throw OFFLEASHError(.conflict, "The subscription is still being recorded; try again") }
        return stored
    }

    static func period(from now: Date, interval: String, count: Int) -> (String, String) {
        let start = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let component: Calendar.Component = interval == "week" ? .weekOfYear : interval == "month" ? .month : .year
        let end = SeriesPlan.utc.date(byAdding: component, value: max(1, count), to: start) ?? start
        return (Timestamp.string(millis: Timestamp.millis(start), fraction: false), Timestamp.string(millis: Timestamp.millis(end), fraction: false))
    }
}
