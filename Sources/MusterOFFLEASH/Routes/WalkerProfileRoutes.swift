package import Hummingbird
import MusterPlatform
package import MusterRuntime

/// A walker's own profile and service areas: `/walker/profile`, `/walker/service-areas`.
package enum WalkerProfileRoutes {
    static let maxBody = 64 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks) {
        routes.get("/walker/profile", access: .person(OFFLEASHRole.walker, .admin)) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, WalkerProfileBody(try await walks.walkerProfile(claims)), headers: [.cacheControl: "private, no-store"])
        }
        routes.put("/walker/profile", access: .person(OFFLEASHRole.walker, .admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(WalkerProfileRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.ok, WalkerProfileBody(try await walks.saveWalkerProfile(claims, body.edit)))
        }
        routes.get("/walker/service-areas", access: .person(OFFLEASHRole.walker, .admin)) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, try await walks.serviceAreas(claims).map(ServiceAreaBody.init), headers: [.cacheControl: "private, no-store"])
        }
        routes.post("/walker/service-areas", access: .person(OFFLEASHRole.walker, .admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(ServiceAreaRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            let area = try await walks.saveServiceArea(claims, name: body.name, color: body.color, polygon: body.polygon, isActive: body.isActive ?? true,
                                                       priority: body.priority ?? 0, priceAdjustmentPercent: body.priceAdjustmentPercent ?? 0)
            return try JSONResponse.make(.created, ServiceAreaBody(area))
        }
        routes.delete("/walker/service-areas/{id}", access: .person(OFFLEASHRole.walker, .admin)) { request, context in
            let claims = try context.claims()
            try await walks.removeServiceArea(claims, areaId: try context.parameters.require("id"))
            return try JSONResponse.make(.ok, Succeeded())
        }
    }
}
