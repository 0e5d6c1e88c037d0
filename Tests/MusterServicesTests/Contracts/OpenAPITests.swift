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
            _ = try MusterHTTP.makeRouter(environment: env.environment, modules: modules)
            let served = Set(env.environment.routes.routes.map { "\($0.method.uppercased()) \($0.path)" })
            let listed = Set(documented.map { "\($0.method.uppercased()) \($0.path)" })
            #expect(served.subtracting(listed).isEmpty, "routes missing from schemas/openapi.yaml: \(served.subtracting(listed).sorted())")
            #expect(listed.subtracting(served).isEmpty, "documented routes the router lacks: \(listed.subtracting(served).sorted())")
            // Each route's rule, as registered, is the one its description declares.
            let rules = env.environment.routes.rules
            for operation in documented {
                guard let rule = rules[RouteTable.Route(method: operation.method.lowercased(), path: operation.path)] else { continue }
                #expect(Self.sameAccess(rule.description, operation.access),
                        "\(operation.method.uppercased()) \(operation.path): registered as \(rule), described as \(operation.access)")
            }
            // Everything under /api/ takes a key or a token, but OFFLEASH's branding (public by its contract).
            for operation in documented where operation.path.hasPrefix("/api/") && operation.access != "public" {
                #expect(operation.statuses.contains("401"), "\(operation.path) must document its 401")
            }
        }
    }

    /// Whether a registered rule and an `x-access` say the same: the same words, roles in any order.
    static func sameAccess(_ registered: String, _ described: String) -> Bool {
        func parts(_ access: String) -> [String] {
            var parts = access.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            if parts.first == "person", parts.count == 3 { parts[2] = parts[2].split(separator: ",").sorted().joined(separator: ",") }
            return parts
        }
        return parts(registered) == parts(described)
    }
}
