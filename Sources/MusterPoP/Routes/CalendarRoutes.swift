import Foundation
package import Hummingbird
import HTTPTypes
import MusterEvents
package import MusterLog
package import MusterPlatform
package import MusterRuntime

/// PoP's civic calendar over HTTP, per organisation (`org`, the first when absent):
/// - `GET /api/pop/config`, `GET /api/pop/events`, `GET /api/pop/bills` (scope `read:civics`): what
///   the app shows, offline too, each with an `ETag` (`If-None-Match` answers 304).
/// - `PUT /api/pop/events/{eventId}` and `POST /api/pop/bills` (an organiser's token): publish,
///   change or cancel an event (`cancelled: true`); record a bill as it now is.
/// - `PUT|DELETE /api/pop/follows/{event|bill}/{id}`: an install follows, proven by its registered
///   device (`X-Device-Id`, `X-Device-Secret`) and the app's key; `…/api/pop/me/follows/…` the same
///   for a signed-in learner (their token and the app's key). Followers get reminders 24 h and 1 h
///   before an event, and an alert when a bill's status changes.
package enum CalendarRoutes {
    static let maxBody = 16 * 1024

    /// The reads (query role).
    package static func addReads(to routes: Routes<Router<MusterRequestContext>>, runner: ProjectionRunner<CalendarProjection>, config: PoPConfig) {
        let read = AccessRule.key(PoPRoutes.app, scope: PoPRoutes.readScope)
        routes.get("/api/pop/config", access: read) { request, _ in
            let org = try organisation(request, config)
            let body = AppConfigBody(org)
            return try tagged(request, tag: HexIDs.derived("cfg-", from: String(decoding: try JSONResponse.encoder.encode(body), as: UTF8.self)), body)
        }
        routes.get("/api/pop/events", access: read) { request, _ in
            let org = try organisation(request, config)
            let (revision, events) = await runner.read { ($0.revision[org.slug] ?? 0, $0.events(of: org.slug)) }
            return try tagged(request, tag: "cal-\(org.slug)-\(revision)", EventsBody(org: org.slug, events: events.map(EventBody.init)))
        }
        routes.get("/api/pop/bills", access: read) { request, _ in
            let org = try organisation(request, config)
            let (revision, bills) = await runner.read { ($0.revision[org.slug] ?? 0, $0.bills(of: org.slug)) }
            return try tagged(request, tag: "cal-\(org.slug)-\(revision)", BillsBody(org: org.slug, bills: bills.map(BillBody.init)))
        }
    }

    /// The writes (ingest role): organisers publish; installs and learners follow.
    package static func addWrites(to routes: Routes<Router<MusterRequestContext>>, calendar: CivicCalendar, people: People, devices: Devices) {
        routes.put("/api/pop/events/{eventId}", access: .person(PoPRole.organiser)) { request, context in
            let org = try await organiserOrg(context, people: people)
            let eventId = try context.parameters.require("eventId").lowercased()
            let body = try await RequestJSON.decode(EventRequest.self, from: request, maxBody: maxBody)
            let event = CivicEventPublished(org: org, eventId: eventId, title: body.title, start: body.start, end: body.end, timeZone: body.timeZone,
                                            place: body.place, url: body.url, latitude: body.latitude, longitude: body.longitude,
                                            cancelled: body.cancelled == true ? true : nil)
            return try JSONResponse.make(.ok, EventBody(try await calendar.publish(event, by: "person:\(try context.person().personId)")))
        }
        routes.post("/api/pop/bills", access: .person(PoPRole.organiser)) { request, context in
            let org = try await organiserOrg(context, people: people)
            let body = try await RequestJSON.decode(BillRequest.self, from: request, maxBody: maxBody)
            let bill = try await calendar.track(org: org, number: body.number, title: body.title, status: body.status, nextHearing: body.nextHearing,
                                                url: body.url, by: "person:\(try context.person().personId)")
            return try JSONResponse.make(.ok, BillBody(bill))
        }
        for (method, following) in [(HTTPRequest.Method.put, true), (.delete, false)] {
            routes.on(method, "/api/pop/follows/{kind}/{id}", access: .key(PoPRoutes.app, scope: PoPRoutes.writeScope)) { _, context in
                guard context.caller.installation?.deviceId != nil, context.caller.installation?.secret != nil else {
                    throw PoPError(.invalidField("X-Device-Id"), "send the install's X-Device-Id and X-Device-Secret (from POST /api/devices)")
                }
                // A secret that does not prove the device: as unknown as no install at all.
                guard let deviceId = await devices.provenInstallation(context.caller.installation, app: PoPRoutes.app) else {
                    throw PoPError(.notFound, "no PoP install with that X-Device-Id and X-Device-Secret")
                }
                try await calendar.follow(kind: try context.parameters.require("kind"), id: try context.parameters.require("id"),
                                          deviceId: deviceId, personId: nil, following: following)
                return Response(status: .noContent)
            }
            routes.on(method, "/api/pop/me/follows/{kind}/{id}", access: .keyAndPerson(PoPRoutes.app, scope: PoPRoutes.writeScope)) { _, context in
                try await calendar.follow(kind: try context.parameters.require("kind"), id: try context.parameters.require("id"),
                                          deviceId: nil, personId: try context.person().personId, following: following)
                return Response(status: .noContent)
            }
        }
    }

    /// The organisation a request names (`org`), or the first.
    static func organisation(_ request: Request, _ config: PoPConfig) throws -> PoPConfig.Org {
        let slug = request.uri.queryParameters["org"].map(String.init)
        guard let org = config.org(slug) else {
            throw PoPError(.notFound, "no organisation \(slug?.prefix(64) ?? "") here")
        }
        return org
    }

    /// The PoP organisation the organiser's token belongs to.
    static func organiserOrg(_ context: MusterRequestContext, people: People) async throws -> String {
        let person = try context.person()
        guard let org = await people.runner.read({ $0.orgs[person.org] }), org.app == PoPRoutes.app else {
            throw PoPError(.forbidden, "only a PoP organisation's organisers publish its calendar")
        }
        return org.slug
    }

    /// The JSON answer with `tag` as its strong `ETag`; 304 when the client has it already.
    static func tagged(_ request: Request, tag: String, _ body: some Encodable) throws -> Response {
        let etag = "\"\(tag)\""
        if JSONResponse.isCurrent(request, etag: etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "no-cache"])
        }
        return try JSONResponse.make(.ok, body, headers: [.eTag: etag, .cacheControl: "no-cache"])
    }
}

struct EventRequest: Decodable {
    var title: String
    var start: String
    var end: String
    var timeZone: String
    var place: String
    var url: String
    var latitude: Double?
    var longitude: Double?
    var cancelled: Bool?
}

struct BillRequest: Decodable {
    var number: String
    var title: String
    var status: String
    var nextHearing: String?
    var url: String
}

struct EventBody: Encodable {
    var id: String
    var title: String
    var start: String
    var end: String
    var timeZone: String
    var place: String
    var url: String
    var latitude: Double?
    var longitude: Double?
    var cancelled: Bool

    init(_ event: CalendarProjection.Event) {
        let published = event.published
        (id, title, start, end, timeZone) = (published.eventId, published.title, published.start, published.end, published.timeZone)
        (place, url, latitude, longitude, cancelled) = (published.place, published.url, published.latitude, published.longitude, published.cancelled == true)
    }
}

struct BillBody: Encodable {
    var id: String
    var number: String
    var title: String
    var status: String
    var nextHearing: String?
    var url: String

    init(_ bill: CalendarProjection.Bill) {
        let tracked = bill.tracked
        (id, number, title, status, nextHearing, url) = (tracked.billId, tracked.number, tracked.title, tracked.status, tracked.nextHearing, tracked.url)
    }
}

struct EventsBody: Encodable { var org: String; var events: [EventBody] }
struct BillsBody: Encodable { var org: String; var bills: [BillBody] }

/// The app's `AppConfig`, field for field.
struct AppConfigBody: Encodable {
    var orgName: String
    var orgTagline: String?
    var contactEmail: String?
    var website: String?
    var stateName: String
    var stateAbbrev: String
    var capital: String?
    var legislatureURL: String?
    var sosURL: String?
    var countyName: String?
    var municipalName: String?
    var primaryColor: String?
    var accentColor: String?

    init(_ org: PoPConfig.Org) {
        (orgName, orgTagline, contactEmail, website) = (org.name, org.tagline, org.contactEmail, org.website)
        (stateName, stateAbbrev, capital, legislatureURL, sosURL) = (org.stateName, org.state, org.capital, org.legislatureURL, org.sosURL)
        (countyName, municipalName, primaryColor, accentColor) = (org.countyName, org.municipalName, org.primaryColor, org.accentColor)
    }
}
