import MusterPlatform

/// `POST /api/push`.
struct PushRequestBody: Decodable, Sendable {
    struct Audience: Decodable, Sendable {
        var tokens: [String]?
        var deviceIds: [String]?
        var personIds: [String]?
        var topics: [String]?
        var everyone: Bool?
    }
    /// Only for platform (operator) keys; an app's key sends to its own app.
    var app: String?
    var audience: Audience
    var title: String
    var body: String
    var screen: String?
    var id: String?
    var imageUrl: String?
    var sound: String?
    var badge: Int?
    var collapseId: String?
    var expiresAt: String?
    var priority: String?
    /// RFC 3339: send then.
    var sendAt: String?
    /// `2026-11-25T09:00:00`: send at that wall-clock time in each device's zone.
    var localTime: String?
    /// A silent push that wakes the app to refresh and shows nothing (normal priority).
    var background: Bool?
    var dryRun: Bool?
}

struct PushAccepted: Encodable, Sendable {
    var pushId: String
    /// `queued` or `scheduled`.
    var status: String
    var targeted: Int
}

struct DryRunAnswer: Encodable, Sendable {
    var dryRun = true
    var targeted: Int
    var ios: Int
    var android: Int
    var payloadBytes: Int
}

/// `GET /api/push/{pushId}`: counts by outcome.
struct PushStatusAnswer: Encodable, Sendable {
    var pushId: String
    var app: String
    var status: String
    var requestedAt: String
    var completedAt: String?
    var targeted: Int?
    var delivered: Int
    var failed: Int
    /// Devices handed to a provider that have no outcome yet.
    var sending: Int
    var reasons: [String: Int]

    init(_ push: PushesProjection.Push) {
        pushId = push.request.pushId
        app = push.request.app
        status = push.status
        requestedAt = push.requestedAt
        completedAt = push.completedAt
        targeted = push.targeted
        delivered = push.delivered
        failed = push.failed
        sending = push.dispatched.keys.filter { !push.handled.contains($0) }.count
        reasons = push.reasons
    }
}
