import MusterEvents

/// What an installation may change about itself after registering.
package struct DeviceSettings: Codable, Sendable, Equatable {
    /// BCP 47 (`en-US`), for the text of what is sent.
    package var locale: String?
    /// IANA (`America/Chicago`), for sends scheduled in the device's own time.
    package var timeZone: String?
    /// What the device subscribed to (`bill-alerts`), lowercase letters, digits and `-`.
    package var topics: [String]
    /// OPL's proximity opt-in: coarse geohash cells (at most 5 characters, about 5 km) that the
    /// device chose itself. The server never learns more precisely where a person is.
    package var cells: [String]

    package init(locale: String? = nil, timeZone: String? = nil, topics: [String] = [], cells: [String] = []) {
        self.locale = locale
        self.timeZone = timeZone
        self.topics = topics
        self.cells = cells
    }

    package func validate() throws {
        if let locale { try DeviceRules.validateLocale(locale) }
        if let timeZone { try DeviceRules.validateTimeZone(timeZone) }
        try Validate.count(topics, 0...50, field: "/settings/topics")
        try Validate.unique(topics, field: "/settings/topics")
        for topic in topics { try DeviceRules.validateTopic(topic, field: "/settings/topics") }
        try Validate.count(cells, 0...100, field: "/settings/cells")
        try Validate.unique(cells, field: "/settings/cells")
        for cell in cells { try DeviceRules.validateCell(cell, field: "/settings/cells") }
    }
}

/// The shapes of a device's fields, as the event schemas state them.
package enum DeviceRules {
    package static let platforms: Set<String> = ["ios", "android"]
    package static let environments: Set<String> = ["sandbox", "production"]
    static let geohashAlphabet = Set("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// `dev_` + 32 lowercase hex.
    package static func validateID(_ id: String, field: String = "/deviceId") throws {
        try Validate.prefixed(id, "dev_", .lowerHex, count: 32, field: field, "dev_ followed by 32 lowercase hex digits")
    }

    /// APNs tokens are hex (64 digits today; Apple says they may grow); FCM's are letters, digits and `-_:`.
    package static func validateToken(_ token: String, platform: String, field: String = "/token") throws {
        let bytes = token.utf8
        if platform == "ios" {
            guard (64...200).contains(bytes.count), bytes.count % 2 == 0, bytes.allSatisfy(isHex) else {
                throw EventValidationError(field: field, "must be an APNs device token: 64 to 200 hex digits")
            }
        } else {
            guard (8...4096).contains(bytes.count), bytes.allSatisfy(isTokenByte) else {
                throw EventValidationError(field: field, "must be an FCM registration token: 8 to 4096 letters, digits, -, _ or :")
            }
        }
    }

    package static func validateBundleID(_ id: String, field: String = "/bundleId") throws {
        let ok = (1...155).contains(id.utf8.count) && id.utf8.allSatisfy { isAlphanumeric($0) || $0 == 45 || $0 == 46 || $0 == 95 }
        guard ok else { throw EventValidationError(field: field, "must be a bundle id: 1 to 155 letters, digits, ., - or _") }
    }

    package static func validateLocale(_ locale: String, field: String = "/settings/locale") throws {
        let ok = (2...35).contains(locale.utf8.count) && locale.utf8.allSatisfy { isAlphanumeric($0) || $0 == 45 || $0 == 95 }
        guard ok else { throw EventValidationError(field: field, "must be a BCP 47 locale such as en-US") }
    }

    package static func validateTimeZone(_ zone: String, field: String = "/settings/timeZone") throws {
        let ok = (1...64).contains(zone.utf8.count)
            && zone.utf8.allSatisfy { isAlphanumeric($0) || $0 == 45 || $0 == 43 || $0 == 47 || $0 == 95 }
        guard ok else { throw EventValidationError(field: field, "must be an IANA time zone such as America/Chicago") }
    }

    package static func validateTopic(_ topic: String, field: String) throws {
        guard (1...64).contains(topic.utf8.count), topic.utf8.allSatisfy(Validate.CharacterClass.lowerAlphanumericDash.contains) else {
            throw EventValidationError(field: field, "topics must be 1 to 64 lowercase letters, digits or -")
        }
    }

    package static func validateCell(_ cell: String, field: String) throws {
        guard (1...5).contains(cell.utf8.count), cell.utf8.allSatisfy(geohashAlphabet.contains) else {
            throw EventValidationError(field: field, "cells must be geohashes of 1 to 5 characters (0-9, b-z without a, i, l, o)")
        }
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == 45 || byte == 95 || byte == 58
    }
}
