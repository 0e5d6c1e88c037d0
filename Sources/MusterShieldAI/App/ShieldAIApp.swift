package import MusterEvents
package import MusterLog
import MusterPlatform
import MusterPush
package import MusterRuntime

/// ShieldAI (account security): voice enrollments (checked WAVs in the audio bucket) and document
/// scans (images in the image bucket, OCR text sealed with a key each, so deleting shreds it); a
/// forgotten person's recordings and scans are erased (`ShieldAIForgetting`). Its device
/// registration (REST and tRPC) and pushes come from the platform and the push app.
package struct ShieldAIApp: MusterApp {
    package static let appName = "shieldai"
    package let name = appName
    package var kind: AppKind { .clientApp }
    package var roles: [String] { ShieldAIRole.names }
    /// Links from the web and from messages open the app on `<screen>/<id>`, as its pushes' deep links do.
    package var linkPaths: [String] { ["/\(name)/link/*"] }
    package var events: EventCatalog { .shieldAI }
    package var projections: [any Projection.Type] { [ShieldAIProjection.self] }
    package var scopes: [String] { [VoiceRoutes.scope, DocumentRoutes.scope] }
    package var settings: [any AppSettings.Type] { [ShieldAISettings.self] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let voices = VoiceEnrollments(log: environment.log, runner: environment.projections.runner(ShieldAIProjection.self),
                                          devices: environment.projections.runner(DevicesProjection.self), blobs: Blobs.shared(in: environment))
            let people = People.shared(in: environment)
            let devices = Devices.shared(in: environment)
            let documents = DocumentScans(log: environment.log, runner: environment.projections.runner(ShieldAIProjection.self),
                                          blobs: Blobs.shared(in: environment), vault: people.vault)
            parts.appends([VoiceEnrolled.self, VoiceErased.self, DocumentScanned.self, DocumentDeleted.self, PushRequested.self])
            let forgetting = ShieldAIForgetting(voices: voices, documents: documents)
            parts.services.append(EventProcessor(name: "shieldai-forgetting", filterSubjects: ShieldAIForgetting.filterSubjects,
                                                 log: environment.log, logger: environment.logger, handler: forgetting.handle))
            parts.routes.append { routes in
                // The app registers its installations through tRPC, on the platform's registry.
                DeviceRoutes.addTRPC("notification.registerDevice", to: routes, devices: devices)
                VoiceRoutes.add(to: routes, voices: voices, devices: devices)
                DocumentRoutes.add(to: routes, documents: documents, devices: devices)
            }
            AccountRoutes.add(Self.accounts(environment.configuration[ShieldAISettings.self], voices: voices, documents: documents),
                              to: &parts, environment: environment)
        case .geocode, .moderation, .collector, .notifier, .query:
            break
        }
    }
}
