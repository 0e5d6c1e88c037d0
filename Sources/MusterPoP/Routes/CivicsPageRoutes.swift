import Foundation
package import Hummingbird
import MusterEvents
package import MusterLog
package import MusterPlatform
package import MusterRuntime

/// The organisers' page at `/pop/civics`: the hardest questions with their texts, how many
/// devices know how much, daily activity, and every question's counts, per organisation and deck.
/// Organisers sign in with their account (the organiser role in a PoP organisation; the page
/// session holds an 8-hour access token and signing out ends it) or a key with `read:civics`.
package enum CivicsPageRoutes {
    static let group = PageGroup(name: "PoP civics", path: "/pop/civics", nav: [.init("Progress", "/pop/civics")])
    static let access = AccessRule.page(scope: PoPRoutes.readScope, roles: PoPRole.organiser)
    static let policy = People.TokenPolicy(app: PoPRoutes.app, accessLifetime: .seconds(8 * 3600), refreshLifetime: .seconds(8 * 3600))

    package static func add(to routes: Routes<Router<MusterRequestContext>>, runner: ProjectionRunner<CivicsProjection>, config: PoPConfig,
                           keys: APIKeyDirectory, people: People, templates: PageTemplates) {
        /// The organisation the visitor may see (nil: every one, for a key), or nil when not signed in.
        @Sendable func visitor(_ context: MusterRequestContext) async -> (signedIn: Bool, org: String?) {
            switch context.principal {
            case .key: return (true, nil)
            case .person(_, let orgId, _, _):
                guard let org = await people.runner.read({ $0.orgs[orgId] }), org.app == PoPRoutes.app else { return (false, nil) }
                return (true, org.slug)
            case .nobody, .device: return (false, nil)
            }
        }
        let signIn = PageSignIn.people(group, roles: [PoPRole.organiser], keyScope: PoPRoutes.readScope,
                                       orgs: config.orgs.map { PageSignIn.Org(slug: $0.slug, name: $0.name) },
                                       defaultOrg: config.orgs.first?.slug ?? "", policy: policy, people: people, keys: keys, templates: templates)
        signIn.add(to: routes)

        routes.get("/pop/civics", access: access) { request, context in
            let who = await visitor(context)
            guard who.signedIn else { return try await signIn.form(request, context) }
            var query = try CivicsQuery(request, config: config)
            if let own = who.org { query.org = own } // an organiser sees their own organisation
            let today = CivicsQuery.today()
            let q = query
            let report = await runner.read { state in
                CivicsPage.page(CivicsReport(state: state, config: config), query: q, today: today, config: config, fixedOrg: who.org != nil)
            }
            return try await templates.report(report, group: group, request: request, context: context)
        }
    }
}
