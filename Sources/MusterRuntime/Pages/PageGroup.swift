package import Hummingbird
import HTTPTypes

/// Pages behind one sign-in (`/admin`, `/field`, `/moderation`…): their name, the path their
/// session cookie is scoped to (so signing in to one group is not signing in to another), and
/// the links of their navigation. Every page of a group is rendered inside the `shell` template.
package struct PageGroup: Sendable {
    package struct Link: Sendable {
        package let label: String
        package let href: String

        package init(_ label: String, _ href: String) {
            self.label = label
            self.href = href
        }
    }

    package let name: String
    package let path: String
    package let nav: [Link]

    package init(name: String, path: String, nav: [Link]) {
        self.name = name
        self.path = path
        self.nav = nav
    }

    package var session: PageSession { PageSession(path: path) }
    package var loginPath: String { path + "/login" }
    package var logoutPath: String { path + "/logout" }
}

/// What `shell.mustache` reads: the group, who is signed in, the forms' token, a notice, and the
/// page's own view as `page`. Mustache looks a name up the stack of views and takes a nil member
/// as absent, so an inner view's nil `foo` finds an outer `foo`: the shell's names are its own
/// (`pageView`), and a page's optional members are named so no outer view has them.
struct ShellView: Sendable {
    struct NavItem: Sendable {
        let label: String
        let href: String
        let current: Bool
    }

    let title: String
    let groupName: String
    let groupPath: String
    let nav: [NavItem]
    let who: String?
    let csrf: String
    let notice: String?
    let problem: String?
    /// Seconds after which the browser loads the page again (a live list without script).
    let refresh: Int?
    let pageView: any Sendable
}

extension PageTemplates {
    /// A page of `group`: `template` (which extends `shell`) with `page` as its view; `notice`, when
    /// not given, is what the redirect of the form before said it did (`done`). Sets the sign-in
    /// token's cookie when the visitor has neither a session nor that cookie yet.
    package func page(_ template: String, title: String, group: PageGroup, request: Request, context: MusterRequestContext,
                      page: some Sendable, status: HTTPResponse.Status = .ok, notice: String? = nil, problem: String? = nil,
                      refresh: Int? = nil, headers: HTTPFields = [:]) async throws -> Response {
        // A form's redirect says what it did in `done` (`/field?done=Approved%202…`).
        let notice = notice ?? request.uri.queryParameters["done"].map { String($0.prefix(120)) }
        let who = Self.who(context.principal)
        let (csrf, setCookie) = PageForms.token(for: request, signedIn: who != nil)
        let path = request.uri.path
        let view = ShellView(
            title: title, groupName: group.name, groupPath: group.path,
            nav: group.nav.map { .init(label: $0.label, href: $0.href, current: $0.href == path) },
            who: who, csrf: csrf, notice: notice, problem: problem, refresh: refresh, pageView: page)
        var headers = headers
        if let setCookie { headers.append(HTTPField(name: .setCookie, value: setCookie)) }
        return HTMLResponse.page(try await render(view, template: template), status: status, headers: headers)
    }

    /// Who the header says is signed in: a person by role (their email is sealed personal data,
    /// not read for a header), a key by its id; nil shows no sign-out form.
    static func who(_ principal: Principal) -> String? {
        switch principal {
        case .person(_, _, let personId, let role): "\(role) \(personId.prefix(8))"
        case .key(_, let keyId): "key \(keyId)"
        case .nobody, .device: nil
        }
    }
}
