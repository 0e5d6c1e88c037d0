package import Hummingbird
import MusterPlatform
package import MusterRuntime

/// Payment methods, checkout and transactions: `/payment-methods`, `/checkout`, `/transactions`.
/// Another customer's method or transaction answers 404.
package enum PaymentsRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks) {
        let provider = walks.payments.name
        let noStore: HTTPFields = [.cacheControl: "private, no-store"]
        routes.get("/payment-methods", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, await walks.cards(claims).map { CardBody($0) }, headers: noStore)
        }
        routes.post("/payment-methods", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let b = try await RequestJSON.decode(CardRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            let card = try await walks.saveCard(claims, methodType: b.methodType, brand: b.cardBrand, lastFour: b.cardLastFour, expMonth: b.cardExpMonth,
                                                expYear: b.cardExpYear, nickname: b.nickname, isDefault: b.isDefault)
            return try JSONResponse.make(.created, CardBody(card))
        }
        routes.put("/payment-methods/{id}/default", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            guard let card = try await walks.changeCard(claims, methodId: try context.parameters.require("id"), to: "defaulted") else {
                throw APIError(.conflict, "The payment method changed meanwhile; reload")
            }
            return try JSONResponse.make(.ok, CardBody(card))
        }
        routes.delete("/payment-methods/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            _ = try await walks.changeCard(claims, methodId: try context.parameters.require("id"), to: "removed")
            return Response(status: .noContent)
        }
        routes.post("/checkout/preview-fees", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let b = try await RequestJSON.decode(PreviewRequest.self, from: request, maxBody: maxBody)
            return try JSONResponse.make(.ok, PreviewBody(try await walks.preview(org: claims.org, subtotalCents: b.subtotalCents, tipCents: b.tipCents ?? 0)))
        }
        routes.post("/checkout", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let b = try await RequestJSON.decode(CheckoutRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.created, CheckoutBody(try await walks.checkout(claims, bookingId: b.bookingId, tipCents: b.tipCents ?? 0), provider: provider))
        }
        @Sendable func checkout(_ context: MusterRequestContext, _ id: String) async throws -> Response {
            let claims = try context.claims()
            return try JSONResponse.make(.ok, CheckoutBody(try await walks.transaction(claims, transactionId: id), provider: provider), headers: noStore)
        }
        routes.get("/checkout/{id}", access: .offleashPerson) { request, context in try await checkout(context, try context.parameters.require("id")) }
        // The preview's path is also the {id} route's: named, so an Allow header lists what the description says (404).
        routes.get("/checkout/preview-fees", access: .offleashPerson) { request, context in try await checkout(context, "preview-fees") }
        routes.post("/checkout/{id}/confirm", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let id = try context.parameters.require("id")
            _ = try await walks.transaction(claims, transactionId: id) // whose, before what they sent
            let b = try await RequestJSON.decode(ConfirmRequest.self, from: request, maxBody: maxBody)
            return try JSONResponse.make(.ok, CheckoutBody(try await walks.confirm(claims, transactionId: id, methodId: b.paymentMethodId), provider: provider))
        }
        routes.post("/checkout/{id}/refund", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let refunded = try await walks.refund(claims, transactionId: try context.parameters.require("id"))
            return try JSONResponse.make(.ok, RefundBody(refundId: refunded.providerReference, refundAmountCents: refunded.priced.totalCents))
        }
        routes.get("/transactions", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, await walks.transactions(claims).map { TransactionBody($0, caller: claims.personId) }, headers: noStore)
        }
        routes.get("/transactions/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, TransactionBody(try await walks.transaction(claims, transactionId: try context.parameters.require("id")),
                                                              caller: claims.personId), headers: noStore)
        }
    }
}
