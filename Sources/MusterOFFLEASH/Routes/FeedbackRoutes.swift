package import Hummingbird
import MusterPlatform
package import MusterRuntime

/// `POST /feedback` (a signed-in person) and `GET /api/branding` (public, by the request's host).
package enum FeedbackRoutes {
    struct FeedbackRequest: Decodable {
        var type: String
        var title: String
        var description: String
    }

    struct Received: Encodable {
        var id: String
        var message = "Thanks! Your feedback was received."
    }

    /// In the shape the app declares (it never asks for it and could not decode it: contract §1.3).
    struct Branding: Encodable {
        struct Colors: Encodable {
            var primary = "#3B82F6", secondary = "#1E40AF", accent = "#10B981"
        }
        var companyName: String
        var logoUrl = ""
        var colors = Colors()
        enum CodingKeys: String, CodingKey { case companyName = "company_name", logoUrl = "logo_url", colors }
    }

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks) {
        routes.post("/feedback", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(FeedbackRequest.self, from: request, maxBody: 64 * 1024)
            let id = try await walks.submitFeedback(claims, type: body.type, title: body.title, description: body.description)
            return try JSONResponse.make(.created, Received(id: id))
        }
        routes.get("/api/branding", access: .anyone) { request, context in
            let org = await walks.branding(host: request.head.authority)
            return try JSONResponse.make(.ok, Branding(companyName: org.companyName))
        }
    }
}
