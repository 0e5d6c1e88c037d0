package import Foundation
package import Logging
package import MusterEvents
import MusterGeo
package import MusterLog
import MusterPlatform
import MusterPush

/// "Strike near you": when an action is approved, a push to the OPL devices whose registered cells
/// meet the action's own point or its sites within their notification radii, and a silent push to
/// the same cells so the app refreshes its blocklist at once instead of at its next timer (one per
/// device in 20 minutes at most: the app's hash/304 refresh catches up with the rest). The server only ever knows the coarse cells a device chose
/// (geohash, at most 5 characters); the places' circles become cells of the same kind and the
/// notifier matches the two. One push per approval: its id comes from the approval's event, so a
/// redelivered approval appends nothing new.
package struct ProximityAlerts: Sendable {
    let log: EventLog
    let logger: Logger
    /// Approvals older than this are history, not news: a notifier added to a long log stays quiet.
    package var maxAge: TimeInterval = 3600

    package init(log: EventLog, logger: Logger) {
        self.log = log
        self.logger = logger
    }

    /// The processor's handler.
    package func handle(_ event: RecordedEvent) async throws {
        guard let approved = event.payload as? ActionApproved else { return }
        if let time = Timestamp.millis(event.time), Double(Timestamp.millis(Date()) - time) > maxAge * 1000 { return }
        guard let push = Self.push(for: approved, approvalID: event.id) else { return }
        for request in [push, Self.refresh(after: push, approvalID: event.id)] {
            do {
                try await log.append(request, options: AppendOptions(idempotencyKey: "proximity:\(request.pushId)", expected: .noEvents,
                                                                     actor: "system:proximity"))
                logger.info("proximity push requested", metadata: ["action": "\(approved.actionId)", "cells": "\(push.audience.cells?.count ?? 0)",
                                                                  "background": "\(request.background == true)"])
            } catch let error as AppendError where error.code == .conflict {
                continue // this approval's push is already there
            }
        }
    }

    /// The silent push that tells the same cells' apps their blocklist changed.
    static func refresh(after push: PushRequested, approvalID: String) -> PushRequested {
        PushRequested(pushId: HexIDs.derived("psh_", from: "blocklist", approvalID), app: "opl", audience: push.audience,
                      message: PushMessage(title: "Blocklist changed", body: "Refresh the blocklist of these cells", screen: "blocklist"),
                      collapseId: "blocklist", priority: "normal", requestedBy: "system:proximity", background: true)
    }

    /// The id of the push an approval (its event id) leads to.
    package static func pushID(approvalID: String) -> String {
        HexIDs.derived("psh_", from: "proximity", approvalID)
    }

    /// The push for an approval, or nil when the action has no place to be near.
    static func push(for approved: ActionApproved, approvalID: String) -> PushRequested? {
        // The places the apps alert around: the action's own point (as the mobile data places it)
        // and each of its sites, each with its radius.
        var circles = approved.locations.map { (latitude: $0.latitude, longitude: $0.longitude, radius: Double($0.notificationRadius)) }
        if let point = approved.action.coordinates {
            circles.insert((point.latitude, point.longitude, Double(BlocklistView.actionRadius)), at: 0)
        }
        guard !circles.isEmpty else { return nil }
        let perCircle = max(1, 5000 / circles.count)
        var cells: [String] = [], seen = Set<String>()
        for circle in circles {
            for cell in Geohash.covering(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius,
                                         precision: 5, limit: perCircle) where seen.insert(cell).inserted {
                cells.append(cell)
            }
        }
        guard !cells.isEmpty else { return nil }
        let place = approved.locations.first?.name ?? approved.action.location
        let body = "\(approved.employer.name): \(approved.action.actionType) at \(place). Please don't cross the line."
        return PushRequested(pushId: pushID(approvalID: approvalID), app: "opl",
                             audience: PushAudience(cells: cells),
                             message: PushMessage(title: "Strike near you", body: String(body.prefix(2000)), screen: "action",
                                                  id: approved.actionId),
                             collapseId: String(approved.actionId.prefix(64)), requestedBy: "system:proximity")
    }
}
