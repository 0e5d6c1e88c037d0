package import Hummingbird
import MusterPlatform
package import MusterRuntime
import NIOCore

/// Customers' subscriptions, the platform's plans and an organisation's own: `/subscriptions/…`.
package enum SubscriptionsRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks) {
        let noStore: HTTPFields = [.cacheControl: "private, no-store"]
        routes.get("/subscriptions/customer", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, await walks.customerSubscriptions(claims).map(CustomerSubscriptionBody.init), headers: noStore)
        }
        routes.get("/subscriptions/customer/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, CustomerSubscriptionBody(try await walks.customerSubscription(claims, id: try context.parameters.require("id"))),
                                         headers: noStore)
        }
        routes.post("/subscriptions/customer", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(SubscriptionRequestBody.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.created, CustomerSubscriptionBody(try await walks.subscribe(claims, body.request)))
        }
        routes.delete("/subscriptions/customer/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, CustomerSubscriptionBody(try await walks.cancelCustomerSubscription(claims, id: try context.parameters.require("id"))))
        }
        routes.get("/subscriptions/tiers", access: .offleashPerson) { request, context in
            _ = try context.claims()
            return try JSONResponse.make(.ok, FeeTier.all.map(FeeTierBody.init))
        }
        routes.get("/subscriptions/tenant", access: .person(OFFLEASHRole.admin)) { request, context in
            let claims = try context.claims()
            guard let current = try await walks.tenantSubscription(claims) else {
                return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "null")))
            }
            return try JSONResponse.make(.ok, TenantSubscriptionBody(current), headers: noStore)
        }
        routes.post("/subscriptions/tenant", access: .person(OFFLEASHRole.admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(TenantSubscriptionRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.created, TenantSubscriptionBody(try await walks.subscribeTenant(claims, tier: body.planTier,
                                                                                                        billingPeriod: body.billingPeriod ?? "monthly")))
        }
        routes.delete("/subscriptions/tenant", access: .person(OFFLEASHRole.admin)) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, TenantSubscriptionBody(try await walks.cancelTenantSubscription(claims)))
        }
    }
}
