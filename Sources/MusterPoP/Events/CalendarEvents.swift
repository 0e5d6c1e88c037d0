import Foundation
package import MusterEvents
import MusterPlatform

/// `pop.calendar.published.v1`: an organisation's civic event as it now is (published, changed or
/// cancelled: `cancelled` true), whole each time, so a reader needs no history.
package struct CivicEventPublished: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "calendar", event: "published", major: 1)

    package var org: String
    package var eventId: String
    package var title: String
    /// RFC 3339 UTC, and the zone the event is held in (the app shows local times in it).
    package var start: String
    package var end: String
    package var timeZone: String
    package var place: String
    package var url: String
    package var latitude: Double?
    package var longitude: Double?
    package var cancelled: Bool?

    package var aggregateID: String { eventId }

    package func validate() throws {
        try Validate.slug(org, field: "/org")
        try Validate.uuid(eventId, field: "/eventId")
        try Validate.length(title, 1...200, field: "/title")
        try Validate.timestamp(start, field: "/start")
        try Validate.timestamp(end, field: "/end")
        guard let from = Timestamp.millis(start), let to = Timestamp.millis(end), from < to else {
            throw EventValidationError(field: "/end", "must be after start")
        }
        guard (1...64).contains(timeZone.utf8.count), TimeZone(identifier: timeZone) != nil else {
            throw EventValidationError(field: "/timeZone", "must be an IANA time zone such as America/Chicago")
        }
        try Validate.length(place, 1...300, field: "/place")
        try CalendarURL.validate(url, field: "/url")
        guard (latitude == nil) == (longitude == nil) else { throw EventValidationError(field: "/latitude", "latitude and longitude come together") }
        if let latitude, !(-90...90).contains(latitude) { throw EventValidationError(field: "/latitude", "must be -90 to 90") }
        if let longitude, !(-180...180).contains(longitude) { throw EventValidationError(field: "/longitude", "must be -180 to 180") }
    }
}

/// `pop.bill.tracked.v1`: a bill an organisation follows, as it now is: its number (`HB 1001`),
/// title, status, next hearing and where to read it. A status that differs from the last one is
/// news for the bill's followers.
package struct BillTracked: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "bill", event: "tracked", major: 1)

    package var org: String
    /// `bil_` + 32 hex, derived from the organisation and the number.
    package var billId: String
    package var number: String
    package var title: String
    package var status: String
    package var nextHearing: String?
    package var url: String

    package var aggregateID: String { billId }

    package func validate() throws {
        try Validate.slug(org, field: "/org")
        try Validate.prefixed(billId, "bil_", .lowerHex, count: 32, field: "/billId", "bil_ followed by 32 lowercase hex digits")
        guard (2...20).contains(number.utf8.count),
              number.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 32 || $0 == 45 || $0 == 46 }) else {
            throw EventValidationError(field: "/number", "must be 2 to 20 capital letters, digits, spaces, dots or dashes (HB 1001)")
        }
        try Validate.length(title, 1...300, field: "/title")
        try Validate.length(status, 1...100, field: "/status")
        if let nextHearing { try Validate.timestamp(nextHearing, field: "/nextHearing") }
        try CalendarURL.validate(url, field: "/url")
    }
}

/// `pop.follow.changed.v1`: an install (by its registered device) or a learner (by their account)
/// follows, or stops following, an event or a bill: reminders and alerts go to followers.
package struct FollowChanged: EventPayload {
    package static let eventType = EventType(app: "pop", aggregate: "follow", event: "changed", major: 1)
    package static let kinds: Set<String> = ["event", "bill"]

    package var org: String
    package var deviceId: String?
    package var personId: String?
    package var kind: String
    package var id: String
    package var following: Bool

    package var follower: String { personId ?? deviceId ?? "" }
    package var aggregateID: String { follower }

    package func validate() throws {
        try Validate.slug(org, field: "/org")
        guard (deviceId == nil) != (personId == nil) else { throw EventValidationError(field: "/deviceId", "a follower is a device or a person") }
        if let deviceId { try DeviceRules.validateID(deviceId) }
        if let personId { try Validate.uuid(personId, field: "/personId") }
        try Validate.oneOf(kind, Self.kinds, field: "/kind")
        if kind == "event" { try Validate.uuid(id, field: "/id") } else {
            try Validate.prefixed(id, "bil_", .lowerHex, count: 32, field: "/id", "bil_ followed by 32 lowercase hex digits")
        }
    }
}

/// Links the app opens in its web views: https only.
enum CalendarURL {
    static func validate(_ url: String, field: String) throws {
        try Validate.length(url, 9...2000, field: field)
        guard url.hasPrefix("https://"), url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw EventValidationError(field: field, "must be an https URL")
        }
    }
}
