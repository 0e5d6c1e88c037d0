import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime

/// ShieldAI's own settings: which app ids Sign in with Apple's tokens must name.
package struct ShieldAISettings: AppSettings, Equatable {
    package var appleAudiences = ["com.kordant.shieldai"]

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case appleAudiences = "MUSTER_SHIELDAI_APPLE_AUDIENCES"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .appleAudiences: appleAudiences = try SettingValue.list(value, of: "app id")
        }
    }
}

extension ShieldAIApp {
    /// ShieldAI's people sign themselves up with a password (proving their email first: it is an
    /// account-protection app) or with Apple, into its one organisation; an access token lives an
    /// hour, and the app keeps its refresh token behind Face ID, bound to its installation.
    static func accounts(_ settings: ShieldAISettings, voices: VoiceEnrollments, documents: DocumentScans) -> AppAccounts {
        AppAccounts(methods: [.password, .apple],
                    policy: People.TokenPolicy(app: appName, accessLifetime: .seconds(3600), signUpRole: ShieldAIRole.customer.rawValue,
                                               requiresVerifiedEmail: true),
                    defaultOrg: defaultOrg, person: .person(anyRoleOf: ShieldAIRole.self), appleAudiences: settings.appleAudiences,
                    displayName: "ShieldAI", secondFactor: true,
                    export: { claims in try await export(claims, voices: voices, documents: documents) })
    }

    /// The organisation a request without `org_slug` means (`make demo` creates it).
    static let defaultOrg = "shieldai"

    /// Their voice enrollments and their documents' metadata (never an image or its text: those
    /// are downloaded one by one, and the text is the person's own).
    static func export(_ claims: AccessClaims, voices: VoiceEnrollments, documents: DocumentScans) async throws -> JSONValue {
        struct Enrollment: Encodable { var id: String; var durationMs: Int; var sampleRate: Int; var createdAt: String }
        struct Document: Encodable { var id: String; var kind: String; var contentType: String; var sizeBytes: Int; var createdAt: String }
        struct Export: Encodable { var voiceEnrollments: [Enrollment]; var documents: [Document] }
        let enrollments = await voices.runner.read { state in
            state.enrollments.values.filter { Access.permits(claims.principal, $0.enrollment.owner.resource) }
                .sorted { $0.createdAt < $1.createdAt }
                .map { Enrollment(id: $0.enrollment.enrollmentId, durationMs: $0.enrollment.durationMs, sampleRate: $0.enrollment.sampleRate,
                                  createdAt: $0.createdAt) }
        }
        let scanned = try await documents.list(claims.principal).map {
            Document(id: $0.documentId, kind: $0.kind, contentType: $0.contentType, sizeBytes: $0.sizeBytes, createdAt: $0.createdAt)
        }
        return try JSONValue(encoding: Export(voiceEnrollments: enrollments, documents: scanned))
    }
}
