import Foundation
package import Hummingbird
import MusterEvents
import MusterLog
import MusterNATS
package import MusterRuntime

/// The operator console at `/admin`, for a platform admin (a key with `admin:platform`, signed in
/// through `PageSignIn`): the stream and the projections of this process, the apps and the scopes
/// their keys may carry, keys (issued with scopes and shown once; revoked), people (added with a
/// role; forgotten), and the dead letters
/// with their reasons, handed back to the processor that filed them once the cause is fixed.
/// Every action is the same event the `muster` command appends.
package enum AdminConsole {
    package static let group = PageGroup(name: "Muster operations", path: "/admin", nav: [
        .init("Overview", "/admin"), .init("Keys", "/admin/keys"), .init("People", "/admin/people"), .init("Dead letters", "/admin/dead-letters"),
        .init("Notifications", "/admin/notifications"),
    ])
    package static let access = AccessRule.page(PlatformApp.appName, scope: PlatformRoutes.adminScope)

    /// The console's one sign-in, for a page of it another role serves (the notifications, where the pushes fold runs).
    package static func signIn(keys: APIKeyDirectory, templates: PageTemplates) -> PageSignIn {
        PageSignIn.keys(group, app: PlatformApp.appName, scope: PlatformRoutes.adminScope, keys: keys, templates: templates)
    }

    /// How many dead letters the list shows (the newest).
    static let deadLetterPage = 100

    package static func add(to routes: Routes<Router<MusterRequestContext>>, keys: APIKeyDirectory, environment: MusterEnvironment,
                           templates: PageTemplates) {
        let signIn = signIn(keys: keys, templates: templates)
        signIn.add(to: routes)
        let log = environment.log
        @Sendable func admin(_ context: MusterRequestContext) -> String? { operatorName(context) }
        addPeopleRoutes(to: routes, people: People.shared(in: environment), templates: templates, signIn: signIn)

        routes.get("/admin", access: access) { request, context in
            guard admin(context) != nil else { return try await signIn.form(request, context) }
            let view = await OverviewView.make(environment: environment)
            return try await templates.page("admin/overview", title: "Overview", group: group, request: request, context: context, page: view)
        }

        routes.post("/admin/projections/:name/rebuild", access: access) { request, context in
            guard admin(context) != nil else { return try await signIn.form(request, context) }
            let name = try context.parameters.require("name")
            guard let projection = environment.projections.all.first(where: { $0.projectionName == name }) else {
                throw APIError(.notFound, "this process runs no fold \(name.prefix(40))")
            }
            // The answer waits for the rebuild: the page says when it is done and how far it reached.
            let checkpoint = try await projection.rebuildLive()
            return HTMLResponse.redirect("/admin?done=Rebuilt%20\(name)%20to%20log%20position%20\(checkpoint)")
        }

        routes.get("/admin/keys", access: access) { request, context in
            guard admin(context) != nil else { return try await signIn.form(request, context) }
            let view = await KeysView.make(keys: keys, environment: environment, issued: nil)
            return try await templates.page("admin/keys", title: "Keys", group: group, request: request, context: context, page: view)
        }
        routes.post("/admin/keys", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let form = try await KeyForm.decode(request)
            do {
                let (key, keyId) = APIKey.generate(app: form.app ?? "")
                let event = try form.issued(key: key, keyId: keyId, issuedBy: admin, scopes: environment.keyScopes)
                _ = try await log.append(event, options: .init(expected: .noEvents, actor: admin))
                // The key itself is shown only in this answer; the log holds its SHA-256.
                let view = await KeysView.make(keys: keys, environment: environment, issued: .init(key: key, keyId: keyId))
                return try await templates.page("admin/keys", title: "Keys", group: group, request: request, context: context, page: view,
                                                status: .created, notice: "Issued \(keyId). Copy the key now: it is not shown again.")
            } catch let error as ConsoleError {
                let view = await KeysView.make(keys: keys, environment: environment, issued: nil)
                return try await templates.page("admin/keys", title: "Keys", group: group, request: request, context: context, page: view,
                                                status: .unprocessableContent, problem: error.message)
            }
        }
        routes.post("/admin/keys/:keyId/revoke", access: access) { request, context in
            guard let admin = admin(context) else { return try await signIn.form(request, context) }
            let keyId = try context.parameters.require("keyId")
            let reason = try await KeyForm.decode(request).reason.flatMap { $0.isEmpty ? nil : $0 } ?? "revoked in the console"
            guard await keys.runner.read({ $0.keys[keyId] }) != nil,
                  let last = try await log.lastSequence(app: PlatformApp.appName, aggregate: "apikey", id: keyId) else {
                throw APIError(.notFound, "no key \(keyId.prefix(40))")
            }
            let event = APIKeyRevoked(keyId: keyId, reason: String(reason.prefix(500)), revokedBy: admin)
            do { try event.validate() } catch { throw APIError(.unprocessableContent, "\(error)") }
            _ = try await log.append(event, options: .init(expected: .at(last), actor: admin))
            return HTMLResponse.redirect("/admin/keys?done=Revoked%20\(keyId)")
        }

        routes.get("/admin/dead-letters", access: access) { request, context in
            guard admin(context) != nil else { return try await signIn.form(request, context) }
            let view = try await DeadLettersView.make(log: log, limit: deadLetterPage, replays: DeadLetterReplays.shared(in: environment))
            return try await templates.page("admin/dead-letters", title: "Dead letters", group: group, request: request, context: context,
                                            page: view)
        }
        routes.get("/admin/dead-letters/:sequence", access: access) { request, context in
            guard admin(context) != nil else { return try await signIn.form(request, context) }
            let letter = try await DeadLettersView.letter(log: log, sequence: try sequence(context), replays: DeadLetterReplays.shared(in: environment))
            return try await templates.page("admin/dead-letter", title: "Dead letter \(letter.sequence)", group: group, request: request,
                                            context: context, page: letter)
        }
        routes.post("/admin/dead-letters/:sequence/replay", access: access) { request, context in
            guard admin(context) != nil else { return try await signIn.form(request, context) }
            let letter = try await DeadLettersView.letter(log: log, sequence: try sequence(context), replays: DeadLetterReplays.shared(in: environment))
            guard let origin = letter.originSequence, let processor = DeadLetterReplays.shared(in: environment).processor(letter.consumer) else {
                throw APIError(.conflict, "this dead letter's consumer (\(letter.consumer)) is not a processor this process runs: rebuild its fold instead")
            }
            do {
                try await processor.replay(sequence: origin)
            } catch {
                return try await templates.page("admin/dead-letter", title: "Dead letter \(letter.sequence)", group: group, request: request,
                                                context: context, page: letter, status: .conflict,
                                                problem: "The processor failed again, so the letter stays: \(error)")
            }
            // Handled: the letter has done its job. The event itself was always in the log.
            try await log.jetStream.deleteMessage(stream: log.configuration.dlqStream, sequence: letter.sequence, erase: false)
            return HTMLResponse.redirect("/admin/dead-letters?done=Replayed%20event%20\(origin)%20through%20\(letter.consumer)")
        }
    }

    static func sequence(_ context: MusterRequestContext) throws -> UInt64 {
        guard let sequence = UInt64(try context.parameters.require("sequence")), sequence > 0 else {
            throw APIError(.notFound, "no such dead letter")
        }
        return sequence
    }
}

/// A refusal the console shows on its page (a form filled in wrong).
struct ConsoleError: Error {
    let message: String
}
