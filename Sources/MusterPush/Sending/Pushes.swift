import Foundation
package import MusterEvents
package import MusterLog
package import MusterPlatform
package import MusterRuntime

/// Why a push was refused, in domain terms; `PushErrorCode+HTTP` gives the answers.
package typealias PushError = DomainError<PushErrorCode>

package enum PushErrorCode: Sendable, Hashable {
    case invalidField(String)
    case unknownPush
}

/// Asking for pushes (ingest). Sending is the notifier's (`PushDispatcher`); how a push went is
/// `PushReports` (query), so neither role runs a fold it does not read.
package struct Pushes: Sendable {
    let log: EventLog
    let devices: ProjectionRunner<DevicesProjection>

    package init(log: EventLog, devices: ProjectionRunner<DevicesProjection>) {
        self.log = log
        self.devices = devices
    }

    /// Who a push would reach now, by platform, and its APNs payload size.
    package struct Reach: Sendable, Equatable {
        package var ios = 0
        package var android = 0
        package var payloadBytes = 0
        package var targeted: Int { ios + android }
    }

    /// Checks the push as the notifier will send it: its rules, and a payload APNs accepts.
    package func check(_ push: PushRequested) async throws -> Reach {
        do {
            try push.validate()
        } catch let error as EventValidationError {
            let field = error.field.split(separator: "/").last.map(String.init) ?? "body"
            throw PushError(.invalidField(field), "\(error.field.dropFirst()): \(error.reason)")
        }
        let notification = try APNsNotification(message: push.message, priority: push.priority, expiresAt: nil, collapseID: push.collapseId)
        guard notification.fits else {
            throw PushError(.invalidField("body"), "the message is \(notification.payload.count) bytes as an APNs payload; APNs takes at most \(APNsNotification.maxPayload)")
        }
        let recipients = await devices.read { Recipients.resolve(push, in: $0) }
        var reach = Reach(payloadBytes: notification.payload.count)
        for device in recipients { if device.platform == "ios" { reach.ios += 1 } else { reach.android += 1 } }
        return reach
    }

    /// The devices registered with these tokens in `app` (a push "to tokens" goes to their devices).
    package func deviceIDs(forTokens tokens: [String], app: String) async throws -> [String] {
        guard (1...10_000).contains(tokens.count) else { throw PushError(.invalidField("tokens"), "tokens must be 1 to 10000") }
        let found = await devices.read { state in
            tokens.map { token in
                (state.byToken[token] ?? state.byToken[token.lowercased()]).flatMap { state.devices[$0] }.flatMap { $0.app == app ? $0.deviceId : nil }
            }
        }
        let missing = found.filter { $0 == nil }.count
        guard missing == 0 else { throw PushError(.invalidField("tokens"), "\(missing) of the tokens are not registered devices of \(app)") }
        return found.compactMap { $0 }
    }

    /// Records the request; the notifier sends it when it is due. With an idempotency key a retry
    /// names the same push and appends nothing new.
    package func request(_ push: PushRequested, idempotencyKey: String?) async throws {
        do {
            _ = try await log.append(push, options: AppendOptions(idempotencyKey: idempotencyKey.map { "push:\(push.requestedBy):\($0)" },
                                                                  expected: idempotencyKey == nil ? .any : .noEvents,
                                                                  actor: push.requestedBy))
        } catch let error as AppendError where error.code == .conflict && idempotencyKey != nil {
            return // the retry found its push already there
        }
    }

    /// `psh_` + 32 hex: random, or derived from who asked and their idempotency key.
    package static func pushID(requestedBy: String, idempotencyKey: String?) -> String {
        idempotencyKey.map { HexIDs.derived("psh_", from: requestedBy, $0) } ?? HexIDs.random("psh_")
    }
}

/// How pushes went, from the pushes fold.
package struct PushReports: Sendable {
    let pushes: ProjectionRunner<PushesProjection>

    package init(pushes: ProjectionRunner<PushesProjection>) {
        self.pushes = pushes
    }

    /// The push, for a key of its app (or an operator's); another app's is as unknown as none.
    /// One this fold has not seen may have just been asked for (here or in another process): the
    /// fold catches up with the log first (at most 2 s), so a push is found right after its `POST`.
    package func status(_ pushId: String, for caller: Principal) async throws -> PushesProjection.Push {
        var found = await pushes.read({ $0.pushes[pushId] })
        if found == nil {
            if try await pushes.catchUpWithLog(timeout: .seconds(2)) { found = await pushes.read({ $0.pushes[pushId] }) }
        }
        guard let push = found, Access.permits(caller, ResourceOwner(app: push.request.app)) else {
            throw PushError(.unknownPush, "no push \(pushId.prefix(40))")
        }
        return push
    }
}
