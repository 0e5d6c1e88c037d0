import Foundation
import MusterAppTesting
import MusterRuntime
import MusterTesting
import Testing

@Suite("schemas/openapi.yaml and the router agree")
struct OpenAPITests {
    struct Operation: Decodable, Hashable { var method: String; var path: String; var statuses: [String]; var access: String }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let result = try await Repository.run(["python3", "scripts/openapi_routes.py", "schemas/openapi.yaml"],
                                        environment: Repository.pythonEnvironment)
        try #require(result.status == 0, "openapi check failed: \(result.error)")
        let documented = try JSONDecoder().decode([Operation].self, from: Data(result.output.utf8))
        try await apps.withTestLog { env in
            let modules = apps.modules(ServiceRole.names, environment: env.environment)
            _ = MusterHTTP.makeRouter(environment: env.environment, modules: modules)
            let served = Set(env.environment.routes.routes.map { "\($0.method.uppercased()) \($0.path)" })
            let listed = Set(documented.map { "\($0.method.uppercased()) \($0.path)" })
            #expect(served.subtracting(listed).isEmpty, "routes missing from schemas/openapi.yaml: \(served.subtracting(listed).sorted())")
            #expect(listed.subtracting(served).isEmpty, "documented routes the router lacks: \(listed.subtracting(served).sorted())")
            // Everything under /api/ takes a key or a token, but OFFLEASH's branding (public by its contract).
            for operation in documented where operation.path.hasPrefix("/api/") && operation.access != "public" {
                #expect(operation.statuses.contains("401"), "\(operation.path) must document its 401")
            }
        }
    }
}
