public import MusterEvents

/// The collector's wire format, as apps send it (snake_case, like the OFFLEASH contract).
///
/// From Sentry's envelope: one header per batch with the device's `sent_at`, which, with each
/// item's `created_at`, lets the server correct a wrong device clock. From Snowplow's
/// self-describing events: every event names its `type` (and optionally its schema `version`),
/// a `custom` event carries its own name and properties, and the device context travels once per
/// batch instead of once per event. `schemas/openapi.yaml` documents it for app developers.
public struct WireBatch: Decodable, Sendable {
    public var sentAt: String
    public var context: WireContext
    public var events: [Lenient<WireEvent>]

    enum CodingKeys: String, CodingKey { case sentAt = "sent_at", context, events }
}

public struct WireContext: Codable, Sendable {
    public var appVersion: String
    public var build: String?
    public var osName: String
    public var osVersion: String
    public var deviceModel: String
    public var anonymousId: String?
    public var locale: String?

    enum CodingKeys: String, CodingKey {
        case appVersion = "app_version", build, osName = "os_name", osVersion = "os_version", deviceModel = "device_model",
             anonymousId = "anonymous_id", locale
    }

    public init(from decoder: any Decoder) throws {
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
public struct WireEvent: Codable, Sendable {
    public var id: String
    public var type: String
    public var createdAt: String
    public var sessionId: String
    public var version: Int?
    // screen_view, time_to_interactive
    public var screen: String?
    public var previousScreen: String?
    public var durationMs: Int?
    public var source: String?
    // api_call
    public var method: String?
    public var endpoint: String?
    public var status: Int?
    public var retryCount: Int?
    public var error: WireError?
    // funnel_step
    public var funnel: String?
    public var step: String?
    public var segment: String?
    // custom
    public var name: String?
    public var properties: [String: PropertyValue]?

    enum CodingKeys: String, CodingKey {
        case id, type, createdAt = "created_at", sessionId = "session_id", version, screen, previousScreen = "previous_screen",
             durationMs = "duration_ms", source, method, endpoint, status, retryCount = "retry_count", error, funnel, step, segment,
             name, properties
    }
}

public struct WireError: Codable, Sendable {
    public var type: String
    public var message: String?
}

/// A crash upload: one or more reports (an app sends what it found on its next launch).
public struct WireCrashBatch: Decodable, Sendable {
    public var sentAt: String
    public var reports: [Lenient<WireCrashReport>]

    enum CodingKeys: String, CodingKey { case sentAt = "sent_at", reports }
}

public struct WireCrashReport: Codable, Sendable {
    public struct Exception: Codable, Sendable { public var type: String; public var reason: String? }
    public struct Frame: Codable, Sendable {
        public var function: String
        public var module: String?
        public var file: String?
        public var line: Int?
        public var inApp: Bool?
        enum CodingKeys: String, CodingKey { case function, module, file, line, inApp = "in_app" }
    }
    public struct Breadcrumb: Codable, Sendable {
        public var timestamp: String
        public var category: String
        public var message: String
        public var level: String?
    }

    public var id: String
    public var createdAt: String
    public var sessionId: String?
    public var context: WireContext
    public var exception: Exception
    public var frames: [Frame]?
    public var breadcrumbs: [Breadcrumb]?

    enum CodingKeys: String, CodingKey {
        case id, createdAt = "created_at", sessionId = "session_id", context, exception, frames, breadcrumbs
    }
}

/// Decodes one item of a batch without failing the batch: a bad item keeps its error and, for
/// the DLQ copy, the JSON it came as. (An item that decodes but breaks a rule is copied as decoded.)
public struct Lenient<Value: Codable & Sendable>: Decodable, Sendable {
    public let result: Result<Value, DecodingError>
    public let raw: JSONValue?

    public init(from decoder: any Decoder) throws {
        do {
            result = .success(try Value(from: decoder))
            raw = nil
        } catch let error as DecodingError {
            result = .failure(error)
            raw = try? JSONValue(from: decoder)
        }
    }
}
