import MusterAppTesting
import MusterEvents
import MusterPlatform
import MusterRuntime
import Testing

/// The platform names no app: organisations, roles and keys are allowed because an app in the
/// list declares them, and refused otherwise.
@Suite("What the platform allows comes from the list of apps")
struct PlatformAppRegistryTests {
    static let kennel = MusterApps([PlatformApp(), ClientApp(name: "kennel", roles: ["keeper", "visitor"])])

    @Test func anAppThePlatformNeverNamedHasOrganisationsPeopleAndKeys() async throws {
        try await Self.kennel.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "kennel-one", app: "kennel", name: "Kennel One")
            let keeper = try await people.addPerson(People.Registration(orgSlug: "kennel-one", email: "k@kennel.example", firstName: "K",
                                                                        lastName: "Eeper", phone: nil, password: "Kennel-2026", role: "keeper"))
            #expect(keeper.role == "keeper")
            let wrongRole = await #expect(throws: AccountError.self) {
                try await people.addPerson(People.Registration(orgSlug: "kennel-one", email: "c@kennel.example", firstName: "C",
                                                               lastName: "Ustomer", phone: nil, password: "Kennel-2026", role: "customer"))
            }
            #expect(wrongRole?.code == .invalidField("role") && wrongRole?.message.contains("keeper, visitor") == true)
            let noRole = await #expect(throws: AccountError.self) {
                try await people.addPerson(People.Registration(orgSlug: "kennel-one", email: "n@kennel.example", firstName: "N",
                                                               lastName: "One", phone: nil, password: "Kennel-2026"))
            }
            #expect(noRole?.code == .invalidField("role"))
            let unknownApp = await #expect(throws: AccountError.self) {
                try await people.createOrganisation(slug: "cattery", app: "cattery", name: "Cattery")
            }
            #expect(unknownApp?.code == .invalidField("app"))
            // The kennel's people sign themselves up only where its policy names a role for them.
            let closed = await #expect(throws: AccountError.self) {
                try await people.register(People.Registration(orgSlug: "kennel-one", email: "v@kennel.example", firstName: "V",
                                                              lastName: "Isitor", phone: nil, password: "Kennel-2026"),
                                          policy: People.TokenPolicy(app: "kennel"))
            }
            #expect(closed?.code == .unknownOrganisation)
            let visitor = try await people.register(People.Registration(orgSlug: "kennel-one", email: "v@kennel.example", firstName: "V",
                                                                        lastName: "Isitor", phone: nil, password: "Kennel-2026"),
                                                    policy: People.TokenPolicy(app: "kennel", signUpRole: "visitor"))
            #expect(visitor.account.role == "visitor")
            _ = try await app.key(app: "kennel", [DeviceRoutes.registerScope])
        }
    }
}
