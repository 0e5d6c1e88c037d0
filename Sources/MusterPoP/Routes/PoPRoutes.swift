import Foundation
package import Hummingbird
import MusterEvents
import MusterJSON
import MusterPlatform
package import MusterRuntime

/// PoP's progress sync under `/api/pop/installs/{installId}`: `POST …/changes` (scope
/// `write:civics`) stores a batch of offline changes, `GET …/progress?since=CURSOR` (scope
/// `read:civics`) returns what changed since, `POST …/link` with a PoP person's bearer token shares
/// the install's progress with the person's other installs (the first link wins: another person's
/// install is 409), `DELETE …/link` with the linked person's token stops sharing. Every route needs
/// PoP's key; a token of another app is 401.
package enum PoPRoutes {
    package static let app = "pop"
    package static let readScope = "read:civics"
    package static let writeScope = "write:civics"
    /// 500 changes of a few hundred bytes each, with room.
    static let maxBody = 512 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, sync: CivicsSync) {
        let installs = routes.group("/api/pop/installs")
        installs.post("/{installId}/changes", access: .key(app, scope: writeScope)) { request, context in
            let installId = try context.parameters.require("installId").lowercased()
            let body = try await RequestJSON.decode(ChangesRequest.self, from: request, maxBody: maxBody)
            let (outcomes, cursor) = try await sync.push(installId: installId, org: body.org, sentAt: body.sentAt, changes: body.changes, received: Date())
            return try JSONResponse.make(.ok, ChangesAnswer(body.changes, outcomes: outcomes, cursor: cursor), writtenBy: JSONBytesEncoder())
        }
        installs.post("/{installId}/link", access: .keyAndPerson(app, scope: writeScope)) { _, context in
            let installId = try context.parameters.require("installId").lowercased()
            try await sync.link(installId: installId, personId: try context.person().personId)
            return try JSONResponse.make(.ok, LinkAnswer(installId: installId, linked: true))
        }
        installs.delete("/{installId}/link", access: .keyAndPerson(app, scope: writeScope)) { _, context in
            let installId = try context.parameters.require("installId").lowercased()
            try await sync.unlink(installId: installId, personId: try context.person().personId)
            return try JSONResponse.make(.ok, LinkAnswer(installId: installId, linked: false))
        }
        installs.get("/{installId}/progress", access: .key(app, scope: readScope)) { request, context in
            let installId = try context.parameters.require("installId").lowercased()
            let since = request.uri.queryParameters["since"].map(String.init)
            guard let cursor = since.map({ UInt64($0) }) ?? 0 else {
                throw PoPError(.invalidField("since"), "since must be a cursor from an earlier answer (a whole number)")
            }
            return try JSONResponse.make(.ok, try await sync.pull(installId: installId, since: cursor), writtenBy: JSONBytesEncoder())
        }
    }
}
