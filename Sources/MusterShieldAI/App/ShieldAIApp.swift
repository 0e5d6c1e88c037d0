public import MusterEvents
public import MusterLog
import MusterPlatform
import MusterPush
public import MusterRuntime

/// ShieldAI (account security): voice enrollments (checked WAVs in the audio bucket). Its device
/// registration (REST and tRPC) and pushes come from the platform and the push app.
public struct ShieldAIApp: MusterApp {
    public let name = "shieldai"
    public var events: EventCatalog { .shieldAI }
    public var projections: [any Projection.Type] { [ShieldAIProjection.self] }
    public var scopes: [String] { [VoiceRoutes.scope] }

    public init() {}

    public func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let voices = VoiceEnrollments(log: environment.log, runner: environment.projections.runner(ShieldAIProjection.self),
                                          devices: environment.projections.runner(DevicesProjection.self), blobs: Blobs.shared(in: environment))
            let (keys, people) = (APIKeyDirectory.shared(in: environment), People.shared(in: environment))
            parts.appends([VoiceEnrolled.self, PushRequested.self])
            parts.routes.append { VoiceRoutes.add(to: $0, voices: voices, keys: keys, people: people) }
        case .geocode, .moderation, .collector, .notifier, .query:
            break
        }
    }
}
