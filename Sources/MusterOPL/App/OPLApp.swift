package import MusterEvents
package import MusterLog
import MusterPlatform
import MusterPush
package import MusterRuntime

/// Online Picket Line: strike submissions and GPS snapshots (ingest), geocoding (geocode), the
/// automatic checks, the moderators' desk and expiry (moderation), and the apps' reads (query).
package struct OPLApp: MusterApp {
    package let name = "opl"
    package var kind: AppKind { .clientApp }
    package var roles: [String] { OPLRole.names }
    /// Links from the web and from messages open the app on `<screen>/<id>`, as its pushes' deep links do.
    package var linkPaths: [String] { ["/\(name)/link/*"] }
    package var events: EventCatalog { .opl }
    package var projections: [any Projection.Type] { [OPLProjection.self] }
    package var scopes: [String] { OPLScopes.all }
    package var settings: [any AppSettings.Type] { [GeocodeSettings.self] }

    package init() {}

    /// Moderators sign in with a password; their accounts are made by an operator. A shift's
    /// session: 8 hours, as the moderation page's.
    static let accounts = AppAccounts(methods: [.password], policy: ModerationPageRoutes.policy, defaultOrg: "opl",
                                      person: .person(anyRoleOf: OPLRole.self), displayName: "OPL")

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        // Each role asks for what it uses: asking for a fold is what makes the process run it.
        var keys: APIKeyDirectory { APIKeyDirectory.shared(in: environment) }
        switch role {
        case .ingest:
            let opl = OPLParts.shared(in: environment)
            parts.appends([ActionSubmitted.self, SnapshotSubmitted.self, DNSStatsReported.self])
            parts.routes.append { MobileWriteRoutes.add(to: $0, rate: opl.writeRate, opl: opl.runner, log: environment.log) }
        case .geocode:
            // Not OPLParts: geocoding reads no fold, and asking for OPLParts would run one.
            let geocoder = Geocoder.shared(in: environment)
            let rate = RateLimiter(perMinute: environment.configuration.readRatePerMinute)
            environment.sharing.register(rate, as: "geocode-reads")
            parts.appends([ActionGeocoded.self])
            parts.readiness.append(ReadinessCheck("gazetteer") { geocoder.notReady })
            parts.services += [GazetteerLoader(geocoder: geocoder, logger: environment.logger),
                               GeocodeEnrichment.processor(geocoder: geocoder, log: environment.log, logger: environment.logger)]
            parts.routes.append { GeocodeRoutes.add(to: $0, rate: rate, geocoder: geocoder) }
            parts.endpoints += GeocodeEndpoints.make(geocoder: geocoder)
        case .moderation:
            let opl = OPLParts.shared(in: environment)
            parts.appends([ActionChecked.self, ActionApproved.self, ActionRejected.self, ActionReopened.self, ActionMerged.self,
                           ActionEnded.self, ActionExtended.self, SnapshotChecked.self, SnapshotApproved.self, SnapshotRejected.self])
            parts.services += [ModerationChecksProcessor.make(opl: opl.runner, log: environment.log, logger: environment.logger),
                               ExpirySweeper(runner: opl.runner, log: environment.log, logger: environment.logger)]
            let (desk, keys) = (ModerationDesk(runner: opl.runner, log: environment.log, rules: opl.rules), keys)
            // Moderators sign in to the page with their accounts (sessions are people's events).
            let people = People.shared(in: environment)
            parts.appends([SessionStarted.self, SessionRevoked.self])
            let templates = PageTemplates.shared(in: environment)
            parts.routes.append { routes in
                ModerationRoutes.add(to: routes, desk: desk)
                ModerationPageRoutes.add(to: routes, keys: keys, people: people, desk: desk, templates: templates)
            }
            AccountRoutes.add(Self.accounts, to: &parts, environment: environment, bindsInstallations: false)
        case .query:
            let (opl, keys) = (OPLParts.shared(in: environment), keys)
            parts.fastPaths.append(MobileReadRoutes.fastPath(keys: keys, rate: opl.readRate, model: opl.model))
            parts.routes.append {
                MobileReadRoutes.add(to: $0, rate: opl.readRate, model: opl.model)
            }
        case .notifier:
            parts.appends([PushRequested.self])
            let alerts = ProximityAlerts(log: environment.log, logger: environment.logger)
            parts.services.append(EventProcessor(name: "opl-proximity", filterSubjects: [ActionApproved.eventType.familyFilter],
                                                 log: environment.log, logger: environment.logger, handler: alerts.handle))
        case .collector:
            break
        }
    }
}

extension Geocoder {
    /// The process's geocoder over the gazetteer in `MUSTER_GAZETTEER` (loaded by `GazetteerLoader`).
    package static func shared(in environment: MusterEnvironment) -> Geocoder {
        environment.shared {
            let settings = environment.configuration[GeocodeSettings.self]
            return Geocoder(path: settings.gazetteerPath, upstream: settings.upstream.map { NominatimClient(searchURL: $0) })
        }
    }
}
