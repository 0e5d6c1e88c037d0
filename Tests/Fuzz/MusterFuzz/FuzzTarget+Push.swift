import Foundation
import MusterStandIns
import MusterEvents
import MusterJSON
@testable import MusterRuntime
@testable import MusterPlatform
@testable import MusterPush
@testable import MusterNotifications

extension FuzzTarget {
    /// What reaches the notifier and the device registry from outside: device registrations (REST
    /// and tRPC envelopes), push requests, people's notification settings (and the quiet hours they
    /// set, placed on a clock the bytes choose), APNs's and FCM's answers (status and body), provider tokens as the
    /// stand-in reads them, and geohash cells.
    static func push(_ bytes: [UInt8]) {
        let status = bytes.first.map { [200, 400, 403, 404, 410, 413, 429, 500, 503][Int($0) % 9] } ?? 200
        switch APNsResponse.outcome(status: status, apnsID: String(decoding: bytes.prefix(40), as: UTF8.self), body: Array(bytes.dropFirst())) {
        case .refused(let reason, _, _, let since):
            require(!reason.isEmpty && reason.utf8.count <= 64, "a reason is short: \(reason.debugDescription)")
            if let since { require(since > 0, "an invalidation time is after 1970") }
        case .retry(let reason, _):
            require(!reason.isEmpty && reason.utf8.count <= 64, "a reason is short")
        case .delivered, .renewToken:
            break
        }
        if case .refused(let reason, _, _, _) = FCMResponse.outcome(status: status, body: Array(bytes.dropFirst())) {
            require(!reason.isEmpty && reason.utf8.count <= 64, "an FCM reason is short")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = ProviderToken.verify(text, publicKey: nil)
        _ = Base64URL.decode(Substring(text))
        _ = LocalTime.parse(text)
        let cells = Recipients.CellSet(text.split(separator: ",").prefix(50).map(String.init))
        _ = cells.meets(String(text.prefix(5)))
        bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            let decoder = JSONBytesDecoder()
            if var registration = (try? decoder.decode(DeviceRequest.self, from: raw))?.registration {
                if (try? Devices.normalise(&registration)) != nil {
                    require(registration.platform != "ios" || registration.environment != nil, "an iOS device has an environment")
                }
            }
            _ = try? decoder.decode(TRPC.Envelope<DeviceRequest>.self, from: raw)
            _ = try? decoder.decode(DeviceUpdateRequest.self, from: raw)
            if let settings = try? decoder.decode(PreferencesRequest.self, from: raw) {
                for (name, _) in settings.categories ?? [:] { _ = try? NotificationNames.validateCategory(name, field: "/categories") }
                if case .some(.some(let quiet)) = settings.quietHours, (try? quiet.validate()) != nil {
                    let seconds = bytes.prefix(8).reduce(0) { $0 << 8 | Int64($1) } & 0xFFFF_FFFF
                    let now = Date(timeIntervalSince1970: TimeInterval(seconds))
                    if let end = quiet.end(containing: now) {
                        require(end > now && end.timeIntervalSince(now) <= 26 * 3600, "quiet hours end within a day after now")
                    }
                }
            }
            if let body = try? decoder.decode(PushRequestBody.self, from: raw) {
                let message = PushMessage(title: body.title, body: body.body, screen: body.screen, id: body.id, imageUrl: body.imageUrl,
                                          sound: body.sound, badge: body.badge)
                if (try? message.validate()) != nil, let note = try? APNsNotification(message: message, priority: "high", expiresAt: nil, collapseID: nil) {
                    require(note.payload.first == UInt8(ascii: "{"), "the payload is a JSON object")
                }
            }
        }
    }
}
