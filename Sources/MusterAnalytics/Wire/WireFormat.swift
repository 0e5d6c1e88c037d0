package import MusterEvents

/// The collector's wire format, as apps send it (snake_case, like the OFFLEASH contract).
///
/// From Sentry's envelope: one header per batch with the device's `sent_at`, which, with each
/// item's `created_at`, lets the server correct a wrong device clock. From Snowplow's
/// self-describing events: every event names its `type` (and optionally its schema `version`),
/// a `custom` event carries its own name and properties, and the device context travels once per
/// batch instead of once per event. `schemas/openapi.yaml` documents it for app developers.
package struct WireBatch: Decodable, Sendable {
    package var sentAt: String
    package var context: WireContext
    package var events: [Lenient<WireEvent>]

    enum CodingKeys: String, CodingKey { case sentAt = "sent_at", context, events }
}

package struct WireContext: Codable, Sendable {
    package var appVersion: String
    package var build: String?
    package var osName: String
    package var osVersion: String
    package var deviceModel: String
    package var anonymousId: String?
    package var locale: String?

    enum CodingKeys: String, CodingKey {
        case appVersion = "app_version", build, osName = "os_name", osVersion = "os_version", deviceModel = "device_model",
             anonymousId = "anonymous_id", locale
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // The context is checked as a whole (422 or 400 for the batch): `null` is not an absent field.
        func optional(_ key: CodingKeys) throws -> String? {
            guard c.contains(key) else { return nil }
            guard try !c.decodeNil(forKey: key) else {
                throw DecodingError.valueNotFound(String.self, .init(codingPath: c.codingPath + [key], debugDescription: "null"))
            }
            return try c.decode(String.self, forKey: key)
        }
        appVersion = try c.decode(String.self, forKey: .appVersion)
        build = try optional(.build)
        osName = try c.decode(String.self, forKey: .osName)
        osVersion = try c.decode(String.self, forKey: .osVersion)
        deviceModel = try c.decode(String.self, forKey: .deviceModel)
        anonymousId = try optional(.anonymousId)
        locale = try optional(.locale)
    }
}

/// One analytics event. The fields after `version` belong to one type or another; which ones a
/// type needs is checked when it becomes a log event (`WireEvent+Log.swift`).
package struct WireEvent: Codable, Sendable {
    package var id: String
    package var type: String
    package var createdAt: String
    package var sessionId: String
    package var version: Int?
    // screen_view, time_to_interactive
    package var screen: String?
    package var previousScreen: String?
    package var durationMs: Int?
    package var source: String?
    // api_call
    package var method: String?
    package var endpoint: String?
    package var status: Int?
    package var retryCount: Int?
    package var error: WireError?
    // funnel_step
    package var funnel: String?
    package var step: String?
    package var segment: String?
    // custom
    package var name: String?
    package var properties: [String: PropertyValue]?

    enum CodingKeys: String, CodingKey {
        case id, type, createdAt = "created_at", sessionId = "session_id", version, screen, previousScreen = "previous_screen",
             durationMs = "duration_ms", source, method, endpoint, status, retryCount = "retry_count", error, funnel, step, segment,
             name, properties
    }
}

package struct WireError: Codable, Sendable {
    package var type: String
    package var message: String?
}

/// A crash upload: one or more reports (an app sends what it found on its next launch).
package struct WireCrashBatch: Decodable, Sendable {
    package var sentAt: String
    package var reports: [Lenient<WireCrashReport>]

    enum CodingKeys: String, CodingKey { case sentAt = "sent_at", reports }
}

package struct WireCrashReport: Codable, Sendable {
    package struct Exception: Codable, Sendable { package var type: String; package var reason: String? }
    package struct Frame: Codable, Sendable {
        package var function: String
        package var module: String?
        package var file: String?
        package var line: Int?
        package var inApp: Bool?
        enum CodingKeys: String, CodingKey { case function, module, file, line, inApp = "in_app" }
    }
    package struct Breadcrumb: Codable, Sendable {
        package var timestamp: String
        package var category: String
        package var message: String
        package var level: String?
    }

    package var id: String
    package var createdAt: String
    package var sessionId: String?
    package var context: WireContext
    package var exception: Exception
    package var frames: [Frame]?
    package var breadcrumbs: [Breadcrumb]?

    enum CodingKeys: String, CodingKey {
        case id, createdAt = "created_at", sessionId = "session_id", context, exception, frames, breadcrumbs
    }
}

/// Decodes one item of a batch without failing the batch: a bad item keeps its error and, for
/// the DLQ copy, the JSON it came as. (An item that decodes but breaks a rule is copied as decoded.)
package struct Lenient<Value: Codable & Sendable>: Decodable, Sendable {
    package let result: Result<Value, DecodingError>
    package let raw: JSONValue?

    package init(from decoder: any Decoder) throws {
        do {
            result = .success(try Value(from: decoder))
            raw = nil
        } catch let error as DecodingError {
            result = .failure(error)
            raw = try? JSONValue(from: decoder)
        }
    }
}
