import MusterEvents
import MusterPlatform

/// Who a push is for. Exactly one kind of target; all of them are matched within the push's app.
package struct PushAudience: Codable, Sendable, Hashable {
    package var deviceIds: [String]?
    package var personIds: [String]?
    package var topics: [String]?
    /// OPL's proximity alerts: the cells an action's sites and radius cover (devices opted in by
    /// registering cells; a device's cell matches when either is a prefix of the other).
    package var cells: [String]?
    /// Every active device of the app.
    package var everyone: Bool?

    package init(deviceIds: [String]? = nil, personIds: [String]? = nil, topics: [String]? = nil, cells: [String]? = nil,
                everyone: Bool? = nil) {
        self.deviceIds = deviceIds
        self.personIds = personIds
        self.topics = topics
        self.cells = cells
        self.everyone = everyone
    }

    package func validate() throws {
        let given = [deviceIds != nil, personIds != nil, topics != nil, cells != nil, everyone == true].filter { $0 }.count
        guard given == 1 else {
            throw EventValidationError(field: "/audience", "must name exactly one of deviceIds, personIds, topics, cells or everyone")
        }
        if let deviceIds {
            try Validate.count(deviceIds, 1...10_000, field: "/audience/deviceIds")
            for id in deviceIds { try DeviceRules.validateID(id, field: "/audience/deviceIds") }
        }
        if let personIds {
            try Validate.count(personIds, 1...10_000, field: "/audience/personIds")
            for id in personIds { try Validate.uuid(id, field: "/audience/personIds") }
        }
        if let topics {
            try Validate.count(topics, 1...20, field: "/audience/topics")
            for topic in topics {
                guard (1...64).contains(topic.utf8.count), topic.utf8.allSatisfy(Validate.CharacterClass.lowerAlphanumericDash.contains) else {
                    throw EventValidationError(field: "/audience/topics", "topics must be 1 to 64 lowercase letters, digits or -")
                }
            }
        }
        if let cells {
            try Validate.count(cells, 1...5_000, field: "/audience/cells")
            for cell in cells {
                guard (1...5).contains(cell.utf8.count), cell.utf8.allSatisfy(PushMessage.geohash.contains) else {
                    throw EventValidationError(field: "/audience/cells", "cells must be geohashes of 1 to 5 characters")
                }
            }
        }
    }
}

/// What the person sees, and where a tap takes them.
package struct PushMessage: Codable, Sendable, Equatable {
    package var title: String
    package var body: String
    /// The app screen a tap opens (`enrollment`, `action`), with `id` of what it shows.
    package var screen: String?
    package var id: String?
    /// A rich push's image: the app's Notification Service Extension downloads it
    /// (`mutable-content` is set).
    package var imageUrl: String?
    package var sound: String?
    package var badge: Int?

    static let geohash = Set("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    package init(title: String, body: String, screen: String? = nil, id: String? = nil, imageUrl: String? = nil,
                sound: String? = nil, badge: Int? = nil) {
        self.title = title
        self.body = body
        self.screen = screen
        self.id = id
        self.imageUrl = imageUrl
        self.sound = sound
        self.badge = badge
    }

    package func validate() throws {
        try Validate.length(title, 1...200, field: "/message/title")
        try Validate.length(body, 1...2000, field: "/message/body")
        if let screen {
            guard (1...64).contains(screen.utf8.count), screen.utf8.allSatisfy(Validate.CharacterClass.lowerAlphanumericDash.contains) else {
                throw EventValidationError(field: "/message/screen", "must be 1 to 64 lowercase letters, digits or -")
            }
        }
        if let id { try Validate.length(id, 1...200, field: "/message/id") }
        if let imageUrl {
            try Validate.length(imageUrl, 9...2000, field: "/message/imageUrl")
            guard imageUrl.hasPrefix("https://") else { throw EventValidationError(field: "/message/imageUrl", "must be an https URL") }
        }
        if let sound { try Validate.length(sound, 1...100, field: "/message/sound") }
        if let badge, !(0...99_999).contains(badge) { throw EventValidationError(field: "/message/badge", "must be 0 to 99999") }
    }
}

/// When a push goes out: now, at an instant, or at a wall-clock time in each device's own zone.
package struct PushSchedule: Codable, Sendable, Equatable {
    /// RFC 3339 UTC.
    package var at: String?
    /// `2026-11-25T09:00:00`, no zone: 09:00 wherever each device is (UTC when it did not say).
    package var localTime: String?

    package init(at: String? = nil, localTime: String? = nil) {
        self.at = at
        self.localTime = localTime
    }

    package func validate() throws {
        guard (at == nil) != (localTime == nil) else { throw EventValidationError(field: "/schedule", "must have one of at or localTime") }
        if let at { try Validate.timestamp(at, field: "/schedule/at") }
        if let localTime, LocalTime.parse(localTime) == nil {
            throw EventValidationError(field: "/schedule/localTime", "must be a local date-time such as 2026-11-25T09:00:00")
        }
    }
}

/// A wall-clock date-time without a zone.
package enum LocalTime {
    /// Seconds since 1970 as if the time were UTC; add a zone's offset to place it.
    package static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        let shape = Array("dddd-dd-ddTdd:dd:dd".utf8)
        guard b.count == shape.count else { return nil }
        for (i, expected) in shape.enumerated() {
            let ok = expected == UInt8(ascii: "d") ? Validate.CharacterClass.digit.contains(b[i]) : b[i] == expected
            if !ok { return nil }
        }
        return Timestamp.millis(text + "Z").map { $0 / 1000 }
    }
}
