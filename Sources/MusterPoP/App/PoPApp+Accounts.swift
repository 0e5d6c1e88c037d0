import MusterEvents
import MusterPlatform
import MusterRuntime

extension PoPApp {
    /// PoP's learners sign up with a password or Apple to carry their progress between installs
    /// (the app works without an account); organisers sign in with a password.
    static func accounts(_ settings: PoPSettings, sync: CivicsSync) -> AppAccounts {
        AppAccounts(methods: [.password, .apple],
                    policy: People.TokenPolicy(app: PoPRole.app, accessLifetime: .seconds(86_400), signUpRole: PoPRole.learner.rawValue),
                    defaultOrg: settings.defaultOrg, person: .person(anyRoleOf: PoPRole.self), appleAudiences: settings.appleAudiences,
                    displayName: "People Over Party",
                    // A learner's sign-up or sign-in from an install links it at once, with the app's key as the link route asks.
                    installLink: AppAccounts.InstallLink(access: .key(PoPRoutes.app, scope: PoPRoutes.writeScope),
                                                         link: { installId, personId in try await sync.link(installId: installId.lowercased(), personId: personId) }),
                    export: { claims in try await sync.export(personId: claims.personId) })
    }
}

extension CivicsSync {
    /// A learner's progress, for their export: every install linked to them, with its cards and
    /// bookmarks as a pull from the start gives them.
    func export(personId: String) async throws -> JSONValue {
        struct Install: Encodable { var installId: String; var progress: ProgressPull }
        let installs = try await runner.tables("progress") { try PoPTables.installs(of: personId, in: $0) }
        var exported: [Install] = []
        for installId in installs.sorted() { exported.append(Install(installId: installId, progress: try await pull(installId: installId, since: 0))) }
        return try JSONValue(encoding: ["installs": exported])
    }
}
