import Crypto
public import Foundation
public import Logging
public import MusterEvents
import MusterGeo
public import MusterLog
import MusterPush

/// "Strike near you": when an action is approved, a push to the OPL devices whose registered cells
/// meet its sites' notification radii. The server only ever knows the coarse cells a device chose
/// (geohash, at most 5 characters); the sites' circles become cells of the same kind and the
/// notifier matches the two. One push per approval: its id comes from the approval's event, so a
/// redelivered approval appends nothing new.
public struct ProximityAlerts: Sendable {
    let log: EventLog
    let logger: Logger
    /// Approvals older than this are history, not news: a notifier added to a long log stays quiet.
    public var maxAge: TimeInterval = 3600

    public init(log: EventLog, logger: Logger) {
        self.log = log
        self.logger = logger
    }

    /// The processor's handler.
    public func handle(_ event: RecordedEvent) async throws {
        guard let approved = event.payload as? ActionApproved else { return }
        if let time = Timestamp.millis(event.time), Double(Timestamp.millis(Date()) - time) > maxAge * 1000 { return }
        guard let push = Self.push(for: approved, approvalID: event.id) else { return }
        do {
            try await log.append(push, options: AppendOptions(idempotencyKey: "proximity:\(event.id)", expected: .noEvents,
                                                              actor: "system:proximity"))
            logger.info("proximity push requested", metadata: ["action": "\(approved.actionId)", "cells": "\(push.audience.cells?.count ?? 0)"])
        } catch let error as AppendError where error.code == .conflict {
            return // this approval's push is already there
        }
    }

    /// The id of the push an approval (its event id) leads to.
    public static func pushID(approvalID: String) -> String {
        let digest = SHA256.hash(data: Data("proximity\n\(approvalID)".utf8))
        return "psh_" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The push for an approval, or nil when the action has no sites to be near.
    static func push(for approved: ActionApproved, approvalID: String) -> PushRequested? {
        let sites = approved.locations
        guard !sites.isEmpty else { return nil }
        let perSite = max(1, 5000 / sites.count)
        var cells: [String] = [], seen = Set<String>()
        for site in sites {
            for cell in Geohash.covering(latitude: site.latitude, longitude: site.longitude, radius: Double(site.notificationRadius),
                                         precision: 5, limit: perSite) where seen.insert(cell).inserted {
                cells.append(cell)
            }
        }
        guard !cells.isEmpty else { return nil }
        let place = sites.first?.name ?? approved.action.location
        let body = "\(approved.employer.name): \(approved.action.actionType) at \(place). Please don't cross the line."
        return PushRequested(pushId: pushID(approvalID: approvalID), app: "opl",
                             audience: PushAudience(cells: cells),
                             message: PushMessage(title: "Strike near you", body: String(body.prefix(2000)), screen: "action",
                                                  id: approved.actionId),
                             collapseId: String(approved.actionId.prefix(64)), requestedBy: "system:proximity")
    }
}
