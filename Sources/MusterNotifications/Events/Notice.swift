package import Foundation
import MusterEvents
import MusterPlatform

/// One message to one person about one thing, as every channel shows it. Stored in the
/// scheduling and deferral events, so a reminder sent next week says what was decided today.
package struct Notice: Codable, Sendable, Equatable {
    package var app: String
    package var category: String
    /// Whom it is for: a person (their devices of the app, their address, their settings), or one
    /// device that follows something without an account (a PoP install). Exactly one of the two.
    package var personId: String?
    package var deviceId: String?
    /// What it is about (`booking:<id>`): bursts about one thing collapse, and a reader of the
    /// log finds every message about it.
    package var about: String
    package var title: String
    package var body: String
    /// Where a tap on the push opens the app: its screen and what that screen shows.
    package var screen: String?
    package var id: String?
    /// The mail's subject and text; the push's title and body when nil.
    package var mailSubject: String?
    package var mailText: String?
    /// Sent during quiet hours; nil: as the category says.
    package var urgent: Bool?

    package init(app: String, category: String, personId: String? = nil, deviceId: String? = nil, about: String, title: String, body: String,
                 screen: String? = nil, id: String? = nil, mailSubject: String? = nil, mailText: String? = nil, urgent: Bool? = nil) {
        self.app = app
        self.category = category
        self.personId = personId
        self.deviceId = deviceId
        self.about = about
        self.title = title
        self.body = body
        self.screen = screen
        self.id = id
        self.mailSubject = mailSubject
        self.mailText = mailText
        self.urgent = urgent
    }

    /// The person or the device, as keys and logs name the recipient.
    package var recipient: String { personId ?? deviceId ?? "" }

    package func validate(field: String = "/notice") throws {
        try Validate.name(app, field: "\(field)/app")
        try NotificationNames.validateCategory(category, field: "\(field)/category")
        guard (personId == nil) != (deviceId == nil) else { throw EventValidationError(field: "\(field)/personId", "a notice is for a person or a device") }
        if let personId { try Validate.uuid(personId, field: "\(field)/personId") }
        if let deviceId { try DeviceRules.validateID(deviceId, field: "\(field)/deviceId") }
        try Validate.length(about, 1...200, field: "\(field)/about")
        try Validate.length(title, 1...200, field: "\(field)/title")
        try Validate.length(body, 1...2000, field: "\(field)/body")
        if let screen { try NotificationNames.validateCategory(screen, field: "\(field)/screen") }
        if let id { try Validate.length(id, 1...200, field: "\(field)/id") }
        if let mailSubject { try Validate.length(mailSubject, 1...200, field: "\(field)/mailSubject") }
        if let mailText { try Validate.length(mailText, 1...10_000, field: "\(field)/mailText") }
    }
}

/// A person's quiet hours: from `start` to `end` (`22:00` to `07:00`, across midnight when end
/// comes first) in their time zone, non-urgent messages wait until the end.
package struct QuietHours: Codable, Sendable, Equatable {
    package var start: String
    package var end: String
    package var timeZone: String

    package init(start: String, end: String, timeZone: String) {
        self.start = start
        self.end = end
        self.timeZone = timeZone
    }

    package func validate(field: String = "/quietHours") throws {
        guard Self.minutes(start) != nil else { throw EventValidationError(field: "\(field)/start", "must be a time of day such as 22:00") }
        guard Self.minutes(end) != nil else { throw EventValidationError(field: "\(field)/end", "must be a time of day such as 07:00") }
        guard start != end else { throw EventValidationError(field: "\(field)/end", "must differ from start") }
        guard (1...64).contains(timeZone.utf8.count), TimeZone(identifier: timeZone) != nil else {
            throw EventValidationError(field: "\(field)/timeZone", "must be an IANA time zone such as Europe/Berlin")
        }
    }

    /// `HH:MM` as minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
        return hours * 60 + minutes
    }

    /// When quiet hours that include `now` end; nil when `now` is outside them. Pure.
    package func end(containing now: Date) -> Date? {
        guard let from = Self.minutes(start), let to = Self.minutes(end), let zone = TimeZone(identifier: timeZone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let inside = from < to ? (from..<to).contains(minute) : (minute >= from || minute < to)
        guard inside else { return nil }
        // The next `end` o'clock after now, in the person's zone (a DST day is what the calendar says it is).
        let ending = DateComponents(hour: to / 60, minute: to % 60, second: 0)
        return calendar.nextDate(after: now, matching: ending, matchingPolicy: .nextTime)
    }
}

enum NotificationNames {
    static let shape = Validate.CharacterClass.lowerAlphanumericDash

    static func validateCategory(_ name: String, field: String) throws {
        guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy(shape.contains) else {
            throw EventValidationError(field: field, "must be 1 to 64 lowercase letters, digits or -")
        }
    }
}
