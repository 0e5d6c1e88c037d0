import MusterPlatform
package import Hummingbird
package import MusterRuntime

/// A customer's pets: `/pets` and `/pets/{id}`. Another customer's pet answers 404.
package enum PetsRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks) {
        routes.get("/pets", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, PetList(pets: try await walks.pets(claims).map(PetBody.init)), headers: [.cacheControl: "private, no-store"])
        }
        routes.get("/pets/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, PetBody(try await walks.pet(claims, petId: try context.parameters.require("id"))),
                                         headers: [.cacheControl: "private, no-store"])
        }
        routes.post("/pets", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(PetRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.created, PetBody(try await walks.savePet(claims, petId: nil, body.edit)))
        }
        routes.put("/pets/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let petId = try context.parameters.require("id")
            _ = try await walks.pet(claims, petId: petId) // whose, before what they sent
            let body = try await RequestJSON.decode(PetRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.ok, PetBody(try await walks.savePet(claims, petId: petId, body.edit)))
        }
        routes.delete("/pets/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            try await walks.removePet(claims, petId: try context.parameters.require("id"))
            return Response(status: .noContent)
        }
    }
}
