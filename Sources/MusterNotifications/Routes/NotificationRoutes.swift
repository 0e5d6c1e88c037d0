import Foundation
package import Hummingbird
import HTTPTypes
package import MusterEvents
package import MusterLog
package import MusterPlatform
package import MusterRuntime

/// Why a preferences request was refused, in domain terms; `NotificationErrorCode+HTTP` answers.
package typealias NotificationError = DomainError<NotificationErrorCode>

package enum NotificationErrorCode: Sendable, Hashable {
    case invalidField(String)
    case badLink
}

/// A person's notification settings for one app, over HTTP:
/// - `GET /api/{app}/me/notifications`: every category the app sends, with the channels it may use
///   on or off for the caller (their choice, or the app's default), and their quiet hours.
/// - `PUT /api/{app}/me/notifications`: `{"categories": {"walk-reminder": {"email": true}},
///   "quietHours": {"start": "22:00", "end": "07:00", "timeZone": "Europe/Berlin"}}`; categories not
///   named keep what they had, `"quietHours": null` ends quiet hours. Answers as `GET` does.
/// - `GET /api/{app}/notifications/unsubscribe?person=…&category=…&token=…`: the link in every
///   mail, a page with one button (mail scanners follow links; a GET changes nothing); `POST` to it
///   turns that category's mail off, also as RFC 8058's one-click `List-Unsubscribe-Post`.
package enum NotificationRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, declaration: AppNotifications, person: AccessRule,
                           preferences: Preferences) {
        let app = declaration.app
        routes.get("/api/\(app)/me/notifications", access: person) { _, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, await preferences.view(declaration, personId: claims.personId),
                                         headers: [.cacheControl: "private, no-store"])
        }
        routes.put("/api/\(app)/me/notifications", access: person) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(PreferencesRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            try await preferences.change(declaration, personId: claims.personId, body)
            return try JSONResponse.make(.ok, await preferences.view(declaration, personId: claims.personId),
                                         headers: [.cacheControl: "private, no-store"])
        }
        routes.get("/api/\(app)/notifications/unsubscribe", access: .anyone) { request, _ in
            guard let link = UnsubscribeLink(request), let category = declaration.category(link.category) else {
                return HTMLResponse.page(page("This link is not whole", "Open the link from the email again, or change your settings in the app."),
                                         status: .unprocessableContent, standalone: true)
            }
            var html = HTMLPage(title: "Unsubscribe")
            html.raw("<main><h1>Stop these emails?</h1><p>")
            html.text("You will no longer get emails for: \(category.summary). Pushes and other messages stay as they are.")
            html.raw("</p><form method=\"post\"><button type=\"submit\">Unsubscribe</button></form></main>")
            return HTMLResponse.page(html.finish(), standalone: true)
        }
        routes.post("/api/\(app)/notifications/unsubscribe", access: .anyone) { request, _ in
            guard let link = UnsubscribeLink(request), declaration.category(link.category) != nil else {
                return HTMLResponse.page(page("This link is not whole", "Open the link from the email again."), status: .unprocessableContent, standalone: true)
            }
            do {
                try await preferences.unsubscribe(declaration, link)
            } catch let error as NotificationError where error.code == .badLink {
                return HTMLResponse.page(page("This link does not work", error.message), status: .notFound, standalone: true)
            }
            return HTMLResponse.page(page("You are unsubscribed", "You will no longer get these emails. You can turn them on again in the app's settings."), standalone: true)
        }
    }

    static func page(_ heading: String, _ text: String) -> String {
        var html = HTMLPage(title: heading)
        html.raw("<main><h1>")
        html.text(heading)
        html.raw("</h1><p>")
        html.text(text)
        html.raw("</p></main>")
        return html.finish()
    }
}

/// The query of an unsubscribe link, if it has every part in its shape.
package struct UnsubscribeLink: Sendable {
    package var personId: String
    package var category: String
    package var token: String

    init?(_ request: Request) {
        let query = request.uri.queryParameters
        guard let person = query["person"].map(String.init), let category = query["category"].map(String.init),
              let token = query["token"].map(String.init),
              (try? Validate.uuid(person, field: "")) != nil, (try? NotificationNames.validateCategory(category, field: "")) != nil,
              token.utf8.count == 64, token.utf8.allSatisfy(Validate.CharacterClass.lowerHex.contains) else { return nil }
        self.personId = person
        self.category = category
        self.token = token
    }
}

/// Reading and changing preferences: the routes' domain side.
package struct Preferences: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<NotificationsProjection>
    let people: People

    package init(log: EventLog, runner: ProjectionRunner<NotificationsProjection>, people: People) {
        self.log = log
        self.runner = runner
        self.people = people
    }

    func view(_ declaration: AppNotifications, personId: String) async -> PreferencesBody {
        let stored = await runner.read { $0.preferences(app: declaration.app, personId: personId) }
        return PreferencesBody(categories: declaration.categories.map { category in
            let chosen = stored?.categories[category.name]
            var channels: [String: Bool] = [:]
            for channel in category.channels {
                channels[channel.rawValue] = chosen.map { $0.contains(channel.rawValue) } ?? category.defaults.contains(channel)
            }
            return PreferencesBody.Category(category: category.name, summary: category.summary, urgent: category.urgent, channels: channels)
        }, quietHours: stored?.quietHours)
    }

    func change(_ declaration: AppNotifications, personId: String, _ request: PreferencesRequest) async throws {
        let stored = await runner.read { $0.preferences(app: declaration.app, personId: personId) } ?? .init()
        var categories = stored.categories
        for (name, switches) in request.categories ?? [:] {
            guard let category = declaration.category(name) else {
                throw NotificationError(.invalidField("categories"), "\(declaration.app) sends no \(name.prefix(64)) messages")
            }
            var on = Set(categories[name] ?? category.defaults.map(\.rawValue))
            for (channel, value) in switches {
                guard let known = NotificationChannel(rawValue: channel), category.channels.contains(known) else {
                    throw NotificationError(.invalidField("categories"), "\(name) messages come by \(category.channels.map(\.rawValue).joined(separator: ", ")) only")
                }
                if value { on.insert(channel) } else { on.remove(channel) }
            }
            categories[name] = on.sorted()
        }
        var quietHours = stored.quietHours
        if let change = request.quietHours { quietHours = change }
        let event = PreferencesSet(app: declaration.app, personId: personId, categories: categories, quietHours: quietHours)
        do {
            try event.validate()
        } catch let error as EventValidationError {
            let field = error.field.split(separator: "/").first.map(String.init) ?? "body"
            throw NotificationError(.invalidField(field), "\(error.field.dropFirst()): \(error.reason)")
        }
        try await append(event, personId: personId)
    }

    func unsubscribe(_ declaration: AppNotifications, _ link: UnsubscribeLink) async throws {
        let expected = try await Notifier.unsubscribeToken(people: people, app: declaration.app, personId: link.personId, category: link.category)
        guard APIKey.constantTimeEquals(expected, link.token) else {
            throw NotificationError(.badLink, "This link does not match any subscription; open the newest email's link, or use the app's settings.")
        }
        let stored = await runner.read { $0.preferences(app: declaration.app, personId: link.personId) } ?? .init()
        var categories = stored.categories
        let defaults = declaration.category(link.category)?.defaults.map(\.rawValue) ?? []
        categories[link.category] = (categories[link.category] ?? defaults).filter { $0 != NotificationChannel.email.rawValue }.sorted()
        try await append(PreferencesSet(app: declaration.app, personId: link.personId, categories: categories, quietHours: stored.quietHours),
                         personId: link.personId)
    }

    func append(_ event: PreferencesSet, personId: String) async throws {
        let result = try await log.append(event, options: AppendOptions(actor: "person:\(personId)"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: .seconds(5))
    }
}

/// `GET`'s answer.
struct PreferencesBody: Encodable {
    struct Category: Encodable {
        var category: String
        var summary: String
        var urgent: Bool
        var channels: [String: Bool]
    }
    var categories: [Category]
    var quietHours: QuietHours?

    enum CodingKeys: String, CodingKey { case categories, quietHours }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(categories, forKey: .categories)
        // Always present: null when the person keeps no quiet hours.
        try container.encode(quietHours, forKey: .quietHours)
    }
}

/// `PUT`'s body: `quietHours` absent keeps them, `null` ends them.
struct PreferencesRequest: Decodable {
    var categories: [String: [String: Bool]]?
    /// nil: unchanged; `.some(nil)`: ended.
    var quietHours: QuietHours??

    enum CodingKeys: String, CodingKey { case categories, quietHours }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        categories = try container.decodeIfPresent([String: [String: Bool]].self, forKey: .categories)
        if container.contains(.quietHours) {
            quietHours = .some(try container.decodeNil(forKey: .quietHours) ? nil : try container.decode(QuietHours.self, forKey: .quietHours))
        }
        guard categories != nil || quietHours != nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "name categories or quietHours"))
        }
    }
}
