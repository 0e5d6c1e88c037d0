import Foundation
package import MusterEvents
package import MusterLog
package import MusterPlatform
import MusterPush
package import MusterRuntime

/// The construction field app: projects, time entries, expenses and photos that crews change
/// offline for a whole shift and sync when a connection appears, merged field by field (`FieldBook`);
/// conflicts on important fields for managers to decide; geofenced time and weekly timesheets.
/// Companies are organisations of app `field`; workers and managers are their person accounts.
package struct FieldApp: MusterApp {
    package let name = "field"
    package var kind: AppKind { .clientApp }
    package var roles: [String] { FieldRole.names }
    /// Links from the web and from messages open the app on `<screen>/<id>`, as its pushes' deep links do.
    package var linkPaths: [String] { ["/\(name)/link/*"] }
    package var events: EventCatalog { .field }
    package var projections: [any Projection.Type] { [FieldProjection.self] }
    package var scopes: [String] { [] }

    package init() {}

    /// Workers and managers sign in with a password; accounts are made by invitation or a manager.
    /// A shift is 12 hours, so is a token.
    package static let accounts = AppAccounts(methods: [.password], policy: People.TokenPolicy(app: FieldRole.app, accessLifetime: .seconds(12 * 3600)),
                                      defaultOrg: nil, person: .fieldPerson, displayName: "Field", joinsByInvitation: true)

    /// What a crew invitation says: the company, the role, and the code the app's join screen takes.
    static let invitationWording = Invitations.Wording(
        subject: { org in "Join \(org) on Field" },
        text: { org, role, join in
            "\(org) invites you to its crew on Field as a \(role). In the Field app choose Join with a code. \(join). It expires in 7 days."
        })

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let sync = FieldSync(log: environment.log, runner: environment.projections.runner(FieldProjection.self),
                                 presence: FieldPresence.shared(in: environment))
            let people = People.shared(in: environment)
            parts.appends([MutationsPushed.self, ProjectAssigned.self, TimeEntryApproved.self, TimeEntryRejected.self, ConflictResolved.self, CompanyConfigured.self,
                           FileStored.self, PushRequested.self])
            let uploads = FieldUploads(folder: URL(fileURLWithPath: environment.configuration.dataDirectory).appendingPathComponent("field-uploads"),
                                       blobs: Blobs.shared(in: environment))
            let (keys, templates) = (APIKeyDirectory.shared(in: environment), PageTemplates.shared(in: environment))
            let invites = environment.configuration[InvitationSettings.self]
            let invitations = Invitations(people: people, sms: nil, mail: invites.mailURL.map { MailClient(baseURL: $0, key: invites.mailKey, from: invites.mailFrom) },
                                          link: nil, wording: Self.invitationWording)
            parts.appends([InvitationSent.self, InvitationAccepted.self, InvitationWithdrawn.self])
            parts.routes.append { routes in
                FieldRoutes.add(to: routes, sync: sync, people: people)
                FieldConsole.add(to: routes, sync: sync, people: people, invitations: invitations, keys: keys, templates: templates)
                UploadRoutes.add(to: routes, uploads: uploads, sync: sync, people: people)
            }
            parts.webSockets.append(FieldLive(sync: sync, people: people).route)
            AccountRoutes.add(Self.accounts, to: &parts, environment: environment)
            parts.interimAnswers.append(UploadRoutes.resumptionSupported)
        case .notifier:
            parts.appends([PushRequested.self])
            let refresh = FieldRefresh(log: environment.log, runner: environment.projections.runner(FieldProjection.self),
                                       presence: FieldPresence.shared(in: environment), logger: environment.logger)
            parts.services.append(EventProcessor(name: "field-refresh", filterSubjects: [MutationsPushed.eventType.familyFilter],
                                                 log: environment.log, logger: environment.logger, handler: refresh.handle))
        case .query, .geocode, .moderation, .collector:
            break
        }
    }
}
