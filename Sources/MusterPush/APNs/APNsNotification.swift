import Foundation
import MusterJSON

/// One push as APNs takes it: the JSON payload and the headers that go with it.
package struct APNsNotification: Sendable, Equatable {
    /// APNs refuses a payload over 4 KB (`PayloadTooLarge`); checked before anything is sent.
    package static let maxPayload = 4096

    package var payload: [UInt8]
    /// `alert` or `background`.
    package var pushType: String
    /// 10 (now) or 5 (when it suits the device's power).
    package var priority: Int
    /// Seconds since 1970 after which Apple stops trying; 0 means once, now.
    package var expiration: Int64?
    package var collapseID: String?

    /// The payload the apps read: `aps` for the system, and `screen`/`id` (and `image` for the
    /// Notification Service Extension) beside it.
    package init(message: PushMessage, priority: String, expiresAt: Int64?, collapseID: String?) throws {
        self.payload = try JSONBytesEncoder().encode(Payload(message))
        pushType = "alert"
        self.priority = priority == "normal" ? 5 : 10
        expiration = expiresAt
        self.collapseID = collapseID
    }

    package var fits: Bool { payload.count <= Self.maxPayload }

    struct Payload: Encodable {
        struct APS: Encodable {
            struct Alert: Encodable {
                var title: String
                var body: String
            }
            var alert: Alert
            var sound: String?
            var badge: Int?
            var mutableContent: Int?

            enum CodingKeys: String, CodingKey {
                case alert, sound, badge
                case mutableContent = "mutable-content"
            }
        }
        var aps: APS
        var screen: String?
        var id: String?
        var image: String?

        init(_ message: PushMessage) {
            aps = APS(alert: .init(title: message.title, body: message.body), sound: message.sound ?? "default", badge: message.badge,
                      mutableContent: message.imageUrl == nil ? nil : 1)
            screen = message.screen
            id = message.id
            image = message.imageUrl
        }
    }
}
