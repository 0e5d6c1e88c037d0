import Foundation
package import Hummingbird
import HTTPTypes
import MusterEvents
import MusterLog
package import MusterPlatform
package import MusterRuntime
import NIOCore

/// PoP's newsletter over HTTP:
/// - `POST /api/pop/newsletter/signups` (scope `write:civics`): the app's `NewsletterSignup`;
///   201 when stored, 200 for a retry of the same id or an address already subscribed.
/// - `GET /pop/unsubscribe?token=…`: a page with one button (a GET never changes
///   anything: mail scanners follow links); `POST` to the same URL unsubscribes and erases the name
///   and email, also as RFC 8058's one-click `List-Unsubscribe-Post`.
/// - `GET /api/pop/newsletter.csv?org=…`: the organisers' export, streamed; an `export:newsletter`
///   key of the app, or the access token of a person with the organiser role in that organisation.
package enum NewsletterRoutes {
    package static let exportScope = "export:newsletter"

    package static func add(to routes: Routes<Router<MusterRequestContext>>, newsletter: Newsletter, people: People) {
        routes.post("/api/pop/newsletter/signups", access: .key(PoPRoutes.app, scope: PoPRoutes.writeScope)) { request, _ in
                let body = try await RequestJSON.decode(SignupRequest.self, from: request, maxBody: 8 * 1024)
                let signup = Newsletter.Signup(id: body.id, name: body.name, email: body.email, signupDate: body.signupDate, org: body.org)
                let id = body.id.lowercased()
                switch try await newsletter.signUp(signup, received: Date()) {
                case .subscribed(let token):
                    return try JSONResponse.make(.created, SignupAnswer(id: id, status: "subscribed", unsubscribeUrl: link(request, token)))
                case .alreadyStored(let token, let live):
                    return try JSONResponse.make(.ok, SignupAnswer(id: id, status: live ? "subscribed" : "unsubscribed",
                                                                   unsubscribeUrl: live ? link(request, token) : nil))
                case .duplicate:
                    return try JSONResponse.make(.ok, SignupAnswer(id: id, status: "duplicate", unsubscribeUrl: nil))
                }
            }
        routes.get("/pop/newsletter/confirm", access: .anyone) { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            guard Newsletter.isTokenShaped(token) else {
                return HTMLResponse.page(NewsletterPage.failed("that confirmation link is not whole; copy all of it from the email"), status: .unprocessableContent, standalone: true)
            }
            return HTMLResponse.page(NewsletterPage.confirmSignup(token: token), standalone: true)
        }
        routes.post("/pop/newsletter/confirm", access: .anyone) { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            do {
                let org = try await newsletter.confirm(token: token)
                return HTMLResponse.page(NewsletterPage.confirmed(org: org), standalone: true)
            } catch let error as PoPError {
                let answer = error.code.apiError(message: error.message)
                return HTMLResponse.page(NewsletterPage.failed(answer.message), status: answer.status, standalone: true)
            }
        }
        routes.get("/pop/unsubscribe", access: .anyone) { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            guard Newsletter.isTokenShaped(token) else {
                return HTMLResponse.page(NewsletterPage.failed(Newsletter.cutLink), status: .unprocessableContent, standalone: true)
            }
            return HTMLResponse.page(NewsletterPage.confirm(token: token), standalone: true)
        }
        routes.post("/pop/unsubscribe", access: .anyone) { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            do {
                let org = try await newsletter.unsubscribe(token: token)
                return HTMLResponse.page(NewsletterPage.done(org: org), standalone: true)
            } catch let error as PoPError {
                let answer = error.code.apiError(message: error.message)
                return HTMLResponse.page(NewsletterPage.failed(answer.message), status: answer.status, standalone: true)
            }
        }
        routes.get("/api/pop/newsletter.csv", access: .keyOrPerson(PoPRoutes.app, scope: exportScope)) { request, context in
            let org = request.uri.queryParameters["org"].map(String.init) ?? newsletter.config.orgs.first?.slug ?? ""
            try await exporter(context, org: org, people: people)
            guard newsletter.config.org(org) != nil else { throw PoPError(.invalidField("org"), "org names no organisation this server has") }
            let base = origin(request)
            var headers = HTTPFields()
            headers[.contentType] = "text/csv; charset=utf-8; header=present"
            headers[.contentDisposition] = "attachment; filename=\"\(org)-newsletter.csv\""
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await newsletter.export(org: org, unsubscribeBase: base) { text in
                    try await writer.write(ByteBuffer(string: text))
                }
                try await writer.finish(nil)
            })
        }
    }

    /// Who may export `org`'s list: the app's key with `export:newsletter` (the route's rule), or
    /// a person who organises that organisation.
    static func exporter(_ context: MusterRequestContext, org: String, people: People) async throws {
        guard case .person = context.principal else { return }
        let person = try context.person()
        // Any sign-in route's token will do: what counts is the role in that PoP organisation.
        guard person.holds(PoPRole.organiser) else { throw PoPError(.forbidden, "only organisers export newsletter lists") }
        let member = await people.runner.read { $0.orgs[person.org] }
        // Another organisation's list is as unknown as none.
        guard member?.app == PoPRoutes.app, member?.slug == org else { throw PoPError(.notFound, "no newsletter list \(org.prefix(64)) of yours") }
    }

    /// The URL the caller reached us by (through the gateway: the host and scheme it forwarded).
    static func origin(_ request: Request) -> String {
        let host = request.head.authority ?? "localhost"
        let scheme = request.headers[.forwardedProto] == "https" ? "https" : "http"
        let safeHost = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) } ? host : "localhost"
        return "\(scheme)://\(safeHost)"
    }

    static func link(_ request: Request, _ token: String) -> String {
        "\(origin(request))/pop/unsubscribe?token=\(token)"
    }
}
