import AsyncHTTPClient
package import MusterEvents
package import MusterLog
import MusterNotifications
package import MusterPlatform
package import MusterRuntime

/// OFFLEASH, dog-walking bookings: accounts over the platform's people, the services catalog,
/// customers' locations, walkers' rosters and bookings. Every route needs the person's key (their
/// data is sealed with it), so all of them are served where people are: the ingest role. Its
/// analytics come through the collector like every app's.
package struct OFFLEASHApp: MusterApp {
    package static let appName = "offleash"
    package let name = appName
    package var kind: AppKind { .clientApp }
    package var roles: [String] { OFFLEASHRole.names }
    /// Links from the web and from messages open the app on `<screen>/<id>`, as its pushes' deep links do.
    package var linkPaths: [String] { ["/\(name)/link/*"] }
    package var events: EventCatalog { .offleash }
    package var projections: [any Projection.Type] { [OFFLEASHProjection.self] }
    package var scopes: [String] { [] }
    package var settings: [any AppSettings.Type] { [OFFLEASHSettings.self] }
    /// The organisation a request without `org_slug` means.
    static let defaultOrg = "demo"

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let people = People.shared(in: environment)
            let settings = environment.configuration[OFFLEASHSettings.self]
            // The app never refreshes: its token lives as long as the old server's (24 h).
            let policy = People.TokenPolicy(app: name, accessLifetime: settings.tokenLifetime, signUpRole: OFFLEASHRole.customer.rawValue)
            let payments: any PaymentProvider = settings.paymentsURL.map { StripePayments(baseURL: $0, key: settings.paymentsKey) } ?? UnconfiguredPayments()
            let walks = Walks(log: environment.log, runner: environment.projections.runner(OFFLEASHProjection.self), people: people, payments: payments)
            let signIn = environment.configuration[SignInSettings.self]
            let providers = ProviderTokens.providers(keysApple: signIn.appleKeysURL, audiencesApple: settings.appleAudiences,
                                                     keysGoogle: signIn.googleKeysURL, audiencesGoogle: settings.googleAudiences)
            let tokens = ProviderTokens(apple: providers.apple, google: providers.google, http: .shared)
            let sms = signIn.smsURL.map { SMSClient(baseURL: $0, account: signIn.smsAccount, token: signIn.smsToken, from: signIn.smsFrom) }
            let codes = PhoneCodes(people: people, sms: sms, replicas: environment.configuration.streamReplicas)
            let invites = environment.configuration[InvitationSettings.self]
            let invitations = Invitations(people: people, sms: sms,
                                          mail: invites.mailURL.map { MailClient(baseURL: $0, key: invites.mailKey, from: invites.mailFrom) },
                                          link: invites.link, wording: Self.invitationWording)
            parts.appends([IdentityLinked.self, IdentityUnlinked.self, OrgCreated.self, MembershipGranted.self,
                           InvitationSent.self, InvitationAccepted.self, InvitationWithdrawn.self])
            parts.appends([AccountRegistered.self, AccountReleased.self, AccountChanged.self, PersonForgotten.self,
                           SessionStarted.self, SessionRefreshed.self, SessionRevoked.self])
            parts.appends([ServiceDefined.self, WalkerRostered.self, LocationSaved.self, LocationRemoved.self, LocationDefaulted.self,
                           WalkBooked.self, WalkChanged.self, WalkerBlocked.self, SeriesCreated.self, SeriesCancelled.self,
                           PetSaved.self, PetRemoved.self, WalkerProfiled.self, ServiceAreaSaved.self, ServiceAreaRemoved.self,
                           FeedbackSubmitted.self, CardSaved.self, CardChanged.self, PaymentPriced.self, PaymentSettled.self,
                           SubscriptionDefined.self])
            let (keys, templates) = (APIKeyDirectory.shared(in: environment), PageTemplates.shared(in: environment))
            parts.routes.append { routes in
                AuthRoutes.add(to: routes, people: people, policy: policy)
                SignInRoutes.add(to: routes, people: people, policy: policy, tokens: tokens, codes: codes)
                WalksRoutes.add(to: routes, walks: walks)
                PetsRoutes.add(to: routes, walks: walks)
                WalkerProfileRoutes.add(to: routes, walks: walks)
                FeedbackRoutes.add(to: routes, walks: walks)
                PaymentsRoutes.add(to: routes, walks: walks)
                SubscriptionsRoutes.add(to: routes, walks: walks)
                InviteRoutes.add(to: routes, walks: walks, invitations: invitations)
                BusinessConsole.add(to: routes, walks: walks, invitations: invitations, people: people, keys: keys, templates: templates)
            }
            let accounts = Self.accounts(settings, policy: policy, walks: walks)
            AccountRoutes.add(accounts, to: &parts, environment: environment)
            NotificationsApp.add(Self.notifications(environment), to: &parts, role: role, peopleRole: .ingest, person: accounts.person,
                                 environment: environment)
        case .notifier:
            NotificationsApp.add(Self.notifications(environment), to: &parts, role: role, peopleRole: .ingest,
                                 person: .person(anyRoleOf: OFFLEASHRole.self), environment: environment)
        default:
            break
        }
    }

    /// What OFFLEASH tells its people, and when (`OFFLEASHNotifications`).
    static func notifications(_ environment: MusterEnvironment) -> AppNotifications {
        OFFLEASHNotifications.declaration(runner: environment.projections.runner(OFFLEASHProjection.self))
    }

    /// OFFLEASH's invitations: a walker is asked to walk dogs for the business, a customer to book walks with it.
    package static let invitationWording = Invitations.Wording(
        subject: { org in "Join \(org) on OFFLEASH" },
        text: { org, role, join in
            let what = OFFLEASHRole(rawValue: role) == .walker ? "walk dogs for \(org)" : "book walks with \(org)"
            return "You're invited to \(what) on OFFLEASH. \(join). It expires in 7 days."
        })
}
