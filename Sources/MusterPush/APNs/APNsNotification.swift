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
    /// `background`: a silent push (`content-available: 1`, no alert, sound or badge), which APNs
    /// takes only as push type `background` at priority 5.
    package init(message: PushMessage, priority: String, expiresAt: Int64?, collapseID: String?, background: Bool = false) throws {
        self.payload = background ? try JSONBytesEncoder().encode(Silent(message)) : try JSONBytesEncoder().encode(Payload(message))
        pushType = background ? "background" : "alert"
        self.priority = background || priority == "normal" ? 5 : 10
        expiration = expiresAt
        self.collapseID = collapseID
    }

    package var fits: Bool { payload.count <= Self.maxPayload }

    /// A silent push's payload: the system wakes the app, which reads `screen`/`id` to know what to refresh.
    struct Silent: Encodable {
        struct APS: Encodable {
            var contentAvailable = 1
            enum CodingKeys: String, CodingKey { case contentAvailable = "content-available" }
        }
        var aps = APS()
        var screen: String?
        var id: String?

        init(_ message: PushMessage) {
            screen = message.screen
            id = message.id
        }
    }

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
