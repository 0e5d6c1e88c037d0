import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterGeo
import MusterLog
import MusterOPL
import MusterPlatform
import MusterPush
import MusterRuntime
import MusterStandIns
import MusterTesting
import Testing

@Suite("Strike near you: an approval pushes to the devices whose cells meet its sites")
struct ProximityAlertTests {
    /// OPL with pushes: the notifier turns approvals into pushes and sends them.
    static let withPushes = MusterApps([PlatformApp(), OPLApp(), PushApp()])

    /// The blocklist changed in a device's cell: a silent push wakes the app to refresh, as APNs
    /// takes one (push type background, priority 5, `content-available` and no alert), and a
    /// second change within 20 minutes does not wake it again (recorded `Throttled`).
    @Test func aChangedBlocklistWakesTheAppsInItsCellsSilentlyAndNotTooOften() async throws {
        try await StandIn.with { standIn in
            try await Self.withPushes.withTestApp(["ingest", "notifier", "query"], configure: standIn.configure) { app in
                let key = try await app.key(app: "opl", [DeviceRoutes.registerScope])
                let site = (lat: 47.6062, lng: -122.3321)
                let token = String(format: "%064x", 7)
                let registered = try await app.request("/api/devices", method: .post, key: key, json: """
                {"token": "\(token)", "platform": "ios", "bundleId": "org.onlinepicketline.app", "environment": "sandbox",
                 "cells": ["\(Geohash.encode(latitude: site.lat, longitude: site.lng, precision: 5))"]}
                """)
                #expect(registered.status == .created, "\(registered.text)")
                for n in 0..<2 {
                    var action = SeededAction()
                    (action.latitude, action.longitude) = (site.lat + 0.001 * Double(n), site.lng)
                    try await action.append(to: app.log)
                }
                let pushes = app.env.environment.projections.runner(PushesProjection.self)
                try await eventually("all four pushes completed") {
                    await pushes.read { state in state.pushes.values.filter { $0.completedAt != nil }.count == 4 }
                }
                let silent = await standIn.recorder.deliveries.filter { $0.pushType == "background" }
                #expect(silent.count == 1, "one wake-up, not two: \(silent.count)")
                let delivery = try #require(silent.first)
                #expect(delivery.token == token && delivery.priority == "5" && delivery.collapseId == "blocklist")
                let payload = try #require(try JSONSerialization.jsonObject(with: Data(delivery.payload.utf8)) as? [String: Any])
                let aps = try #require(payload["aps"] as? [String: Any])
                #expect(aps["content-available"] as? Int == 1 && aps["alert"] == nil && aps["sound"] == nil)
                #expect(payload["screen"] as? String == "blocklist")
                let throttled = await pushes.read { $0.pushes.values.filter { $0.request.background == true }.map(\.reasons) }
                #expect(throttled.contains(["Throttled": 1]), "\(throttled)")
                #expect(await standIn.recorder.deliveries.filter { $0.pushType == "alert" }.count == 2, "both strikes are news")
            }
        }
    }

    @Test func anApprovalReachesTheCellsNearItsSitesOnly() async throws {
        try await Self.withPushes.withTestApp(["ingest", "notifier", "query"]) { app in
            let key = try await app.key(app: "opl", [DeviceRoutes.registerScope])
            let site = (lat: 47.6062, lng: -122.3321)
            func register(_ n: Int, cell: String) async throws -> String {
                let response = try await app.request("/api/devices", method: .post, key: key, json: """
                {"token": "\(String(format: "%064x", n))", "platform": "ios", "bundleId": "org.onlinepicketline.app", "cells": ["\(cell)"]}
                """)
                #expect(response.status == .created, "\(response.text)")
                return try #require(response.json["deviceId"] as? String, "\(response.status): \(response.text)")
            }
            let near = try await register(1, cell: Geohash.encode(latitude: site.lat, longitude: site.lng, precision: 5))
            let coarse = try await register(2, cell: Geohash.encode(latitude: site.lat, longitude: site.lng, precision: 3))
            _ = try await register(3, cell: Geohash.encode(latitude: 40.7128, longitude: -74.0060, precision: 5))

            var action = SeededAction()
            (action.latitude, action.longitude) = (site.lat + 0.001, site.lng) // the action's own point is near the site too
            action.sites = [ActionSite(locationId: "loc_" + String(repeating: "a", count: 16), type: "picket-site", name: "Gate 3",
                                       latitude: site.lat, longitude: site.lng, notificationRadius: 3000)]
            try await action.append(to: app.log)

            let pushes = app.env.environment.projections.runner(PushesProjection.self)
            try await eventually("the proximity push completed") {
                await pushes.read { state in state.pushes.values.contains { $0.request.background == nil && $0.completedAt != nil } }
            }
            let push = try #require(await pushes.read { $0.pushes.values.first { $0.request.background == nil } })
            #expect(push.request.message.title == "Strike near you")
            #expect(push.request.message.screen == "action" && push.request.message.id == action.id)
            #expect(push.targeted == 2, "the near and the coarse device, not the one in New York")
            // No APNs configured here: each targeted copy is recorded, not lost.
            #expect(push.reasons == ["NoProvider": 2])
            let failed = try await app.log.read(filter: "events.push.send.*.failed.v1").compactMap { $0.payload as? PushFailed }
                .filter { $0.pushId == push.request.pushId }
            #expect(Set(failed.map(\.deviceId)) == [near, coarse])
            // Beside it, the silent refresh to the same cells; the approval delivered again appends neither anew.
            let requested = try await app.log.read(filter: "events.push.send.*.requested.v1").compactMap { $0.payload as? PushRequested }
            #expect(requested.count == 2 && requested.filter { $0.background == true }.map(\.audience) == [push.request.audience])
        }
    }
}
