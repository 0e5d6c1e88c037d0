package import AsyncHTTPClient
import Crypto
package import Foundation
package import Logging
import MusterEvents
package import MusterLog
package import MusterPlatform
import Metrics
import MusterJSON
import ServiceLifecycle
import Tracing

/// Sends every open push when it is due (the notifier role). The log is the record: a chunk of
/// devices is claimed by appending `push.send.dispatched.v1` expecting the push's last event (so
/// two notifiers never take the same devices), each device's outcome is appended as it comes,
/// and a restarted notifier carries on with the devices that were never dispatched. A device
/// dispatched without an outcome (the process died between Apple's answer and the append) is
/// recorded `InDoubt` after `inDoubtAfter`, never sent again: a push is never delivered twice.
package struct PushDispatcher: Service {
    let pushes: ProjectionRunner<PushesProjection>
    let devices: ProjectionRunner<DevicesProjection>
    let log: EventLog
    let apns: APNsClient?
    let fcm: FCMClient?
    /// Owned: shut down when the dispatcher stops.
    let http: [HTTPClient]
    let logger: Logger
    package var chunkSize = 500
    package var maxInFlight = 256
    package var inDoubtAfter: TimeInterval = 300
    /// At most one silent push per device in this long (Apple: two or three an hour at most).
    package var backgroundSpacing: TimeInterval = 20 * 60
    package var idle: Duration = .milliseconds(200)
    /// How many audiences' pushes are worked on side by side.
    package var lanes = 256

    /// An open push as a pass orders and groups it.
    struct Open: Sendable {
        let pushId: String
        let audience: PushAudience
        let sequence: UInt64
        let traceparent: String?
    }

    package init(pushes: ProjectionRunner<PushesProjection>, devices: ProjectionRunner<DevicesProjection>, log: EventLog,
                apns: APNsClient?, fcm: FCMClient? = nil, http: [HTTPClient], logger: Logger) {
        self.pushes = pushes
        self.devices = devices
        self.log = log
        self.apns = apns
        self.fcm = fcm
        self.http = http
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // What a pass orders and groups by, not the whole push: its request and device
                // records are read again by the lane that works on it.
                let open = await pushes.read { state in
                    state.open.compactMap { id in state.pushes[id].map { Open(pushId: id, audience: $0.request.audience,
                                                                                 sequence: $0.sequence, traceparent: $0.traceparent) } }
                }
                let handed = await pass(over: open.sorted(by: { $0.sequence < $1.sequence }))
                // Pushes waiting for their time, or for a busy fold, are looked at again after a pause.
                try? await Task.sleep(for: handed ? .milliseconds(5) : idle)
            }
        }
        for client in http { try? await client.shutdown() }
    }

    /// Works on every open push, `lanes` audiences at a time: pushes to one audience go one after
    /// another in the order they were asked (a later message about a thing never overtakes an
    /// earlier one on a phone), pushes to different audiences side by side. True when any device
    /// was handed over.
    func pass(over open: [Open]) async -> Bool {
        var order: [PushAudience] = [], byAudience: [PushAudience: [Open]] = [:]
        for push in open {
            if byAudience[push.audience] == nil { order.append(push.audience) }
            byAudience[push.audience, default: []].append(push)
        }
        // Each lane: whether it handed devices over, and the error that stopped it.
        let (handed, failures) = await withTaskGroup(of: (Bool, String?).self) { group in
            var handed = false, failures: [String] = [], running = 0
            func count(_ done: (Bool, String?)) {
                handed = handed || done.0
                if let failure = done.1 { failures.append(failure) }
            }
            for audience in order where !Task.isCancelled {
                if running == lanes, let done = await group.next() {
                    count(done)
                    running -= 1
                }
                let lane = byAudience[audience] ?? []
                group.addTask {
                    var handed = false
                    do {
                        for push in lane where !Task.isCancelled {
                            // Within the request's trace: the claims, the provider calls and the outcomes are its spans.
                            let some = try await EventTrace.span("send push", traceparent: push.traceparent) { try await work(on: push.pushId) }
                            handed = handed || some
                        }
                    } catch {
                        return (handed, "\(error)")
                    }
                    return (handed, nil)
                }
                running += 1
            }
            for await done in group { count(done) }
            return (handed, failures)
        }
        // One line a pass, however many lanes a cause (the log unreachable) stopped.
        if let first = failures.first {
            logger.warning("push dispatch failed; trying again", metadata: ["error": "\(first)", "lanes": "\(failures.count)"])
        }
        return handed
    }

    /// Hands the push's devices over chunk by chunk until none is left for now, then completes it
    /// when every device has its outcome. The audience is resolved once a pass (it is every device
    /// of an app at worst); the pass after the last chunk resolves it again for devices that
    /// registered meanwhile, and finishes when there are none.
    /// True when it handed any device over.
    @discardableResult
    func work(on pushId: String) async throws -> Bool {
        var handed = false
        // One window for the whole push: each chunk starts at the pace the last one reached (and
        // keeps the provider's last "slow down"), not at slow start's 32 again.
        var window = AdaptiveWindow(initial: min(32, maxInFlight), maximum: maxInFlight)
        while !Task.isCancelled {
            guard let push = await pushes.read({ $0.pushes[pushId] }), push.completedAt == nil else { return handed }
            let now = Date()
            if let at = push.request.schedule?.at.flatMap({ Timestamp.millis($0) }), at > Timestamp.millis(now) { return handed }
            // A devices fold still replaying (a notifier just started) would find no one and
            // complete the push empty: wait for it to catch up with the log first.
            guard await devices.caughtUp else { return handed }
            let recipients = await devices.read { Recipients.resolve(push.request, in: $0) }
            var pending: [DevicesProjection.Device] = [], later = 0
            for device in recipients where push.dispatched[device.deviceId] == nil && !push.handled.contains(device.deviceId) {
                if Self.due(push.request, for: device) > now { later += 1 } else { pending.append(device) }
            }
            if pending.isEmpty {
                try await finish(push, waitingForLater: later > 0, now: now)
                return handed
            }
            for start in stride(from: 0, to: pending.count, by: chunkSize) where !Task.isCancelled {
                let chunk = Array(pending[start..<min(start + chunkSize, pending.count)])
                guard try await hand(chunk, of: pushId, window: &window) else { break } // another notifier took some: resolve again
                handed = true
            }
        }
        return handed
    }

    /// Claims the chunk and sends it (or records it expired); false when another notifier claimed first.
    /// The chunk is filtered against the same read of the push whose sequence the claim expects: a
    /// device claimed since the chunk was made is left out, and a claim made since that read fails.
    func hand(_ candidates: [DevicesProjection.Device], of pushId: String, window: inout AdaptiveWindow) async throws -> Bool {
        guard let push = await pushes.read({ $0.pushes[pushId] }), push.completedAt == nil else { return false }
        var chunk = candidates.filter { push.dispatched[$0.deviceId] == nil && !push.handled.contains($0.deviceId) }
        guard !chunk.isEmpty else { return false }
        let now = Date()
        if push.request.background == true {
            // Apple's advice: a device woken too often in the background is throttled by the system anyway.
            let recent = await pushes.read { state in
                Set(chunk.map(\.deviceId).filter { (state.lastBackground[$0] ?? 0) > Timestamp.millis(now) - Int64(backgroundSpacing * 1000) })
            }
            if !recent.isEmpty {
                var last: UInt64 = 0
                for device in chunk where recent.contains(device.deviceId) {
                    last = try await record(.failed(reason: "Throttled", status: nil, invalidatesToken: false, since: nil),
                                            attempts: 0, provider: "none", device: device, pushId: pushId)
                }
                _ = await pushes.waitUntilApplied(last, timeout: .seconds(5))
                chunk.removeAll { recent.contains($0.deviceId) }
                guard !chunk.isEmpty else { return true }
            }
        }
        if let expires = push.request.expiresAt.flatMap({ Timestamp.millis($0) }), expires < Timestamp.millis(now) {
            var last: UInt64 = 0
            for device in chunk {
                last = try await record(.failed(reason: "Expired", status: nil, invalidatesToken: false, since: nil),
                                        attempts: 0, provider: "none", device: device, pushId: pushId)
            }
            _ = await pushes.waitUntilApplied(last, timeout: .seconds(5))
            return true
        }
        do {
            let claimed = try await log.append(PushDispatched(pushId: pushId, deviceIds: chunk.map(\.deviceId)),
                                               options: AppendOptions(expected: .at(push.sequence), actor: "system:notifier"))
            _ = await pushes.waitUntilApplied(claimed.sequence, timeout: .seconds(5))
        } catch let error as AppendError where error.code == .conflict {
            // Another notifier claimed devices first (or our fold is behind): read again.
            try? await Task.sleep(for: .milliseconds(Int64.random(in: 20...120)))
            return false
        }
        let last = try await send(chunk, push: push.request, window: &window)
        _ = await pushes.waitUntilApplied(last, timeout: .seconds(5))
        return true
    }

    /// Nothing left to hand over: devices dispatched long ago without an outcome are in doubt,
    /// and when none is waiting the push is complete.
    func finish(_ push: PushesProjection.Push, waitingForLater: Bool, now: Date) async throws {
        let waiting = push.dispatched.filter { !push.handled.contains($0.key) }
        let stale = waiting.filter { (Timestamp.millis($0.value) ?? 0) < Timestamp.millis(now) - Int64(inDoubtAfter * 1000) }
        var last = push.sequence
        for id in stale.keys.sorted() {
            last = try await log.append(PushFailed(pushId: push.request.pushId, deviceId: id, provider: "none", reason: "InDoubt", status: nil,
                                            attempts: 1),
                                 options: AppendOptions(idempotencyKey: "indoubt:\(push.request.pushId):\(id)", actor: "system:notifier")).sequence
        }
        guard !waitingForLater, waiting.count == stale.count else { return }
        _ = await pushes.waitUntilApplied(last, timeout: .seconds(5))
        guard let current = await pushes.read({ $0.pushes[push.request.pushId] }) else { return }
        do {
            try await log.append(PushCompleted(pushId: push.request.pushId, targeted: current.handled.count),
                                 options: AppendOptions(expected: .at(current.sequence), actor: "system:notifier"))
            logger.info("push completed", metadata: ["push": "\(push.request.pushId)", "delivered": "\(current.delivered)",
                                                     "failed": "\(current.failed)"])
        } catch let error as AppendError where error.code == .conflict {
            return // something else happened to it meanwhile; the next pass looks again
        }
    }

    /// Sends one chunk with `window` copies in flight (it grows and shrinks as the provider
    /// answers); returns the last sequence appended.
    func send(_ chunk: [DevicesProjection.Device], push: PushRequested, window: inout AdaptiveWindow) async throws -> UInt64 {
        let notification = try APNsNotification(message: push.message, priority: push.priority,
                                                expiresAt: push.expiresAt.flatMap({ Timestamp.millis($0) }).map { $0 / 1000 },
                                                collapseID: push.collapseId, background: push.background == true)
        var last: UInt64 = 0
        // Each copy is delivered and its outcome appended in its own task, so the log's acks
        // overlap like the provider's answers do.
        try await withThrowingTaskGroup(of: (result: APNsClient.Result, sequence: UInt64).self) { group in
            var queue = chunk.makeIterator(), inFlight = 0
            func startMore() {
                while inFlight < window.limit, let device = queue.next() {
                    inFlight += 1
                    group.addTask {
                        let (_, result, provider) = await deliver(notification, push, to: device)
                        let sequence = try await record(result.delivery, attempts: result.attempts, provider: provider, device: device,
                                                        pushId: push.pushId)
                        if case .delivered = result.delivery { Self.measureDelivery(push, provider: provider) }
                        return (result, sequence)
                    }
                }
            }
            startMore()
            while let (result, sequence) = try await group.next() {
                inFlight -= 1
                if result.throttled { window.throttled() } else if case .delivered = result.delivery { window.succeeded() }
                last = max(last, sequence)
                startMore()
            }
        }
        return last
    }

    func deliver(_ notification: APNsNotification, _ push: PushRequested,
                 to device: DevicesProjection.Device) async -> (DevicesProjection.Device, APNsClient.Result, String) {
        let none = { (reason: String) in
            (device, APNsClient.Result(delivery: .failed(reason: reason, status: nil, invalidatesToken: false, since: nil), attempts: 0,
                                       throttled: false), "none")
        }
        if device.platform == "android" {
            guard let fcm else { return none("NoProvider") }
            let result = await Self.providerCall("FCM send") {
                await fcm.deliver(push.message, token: device.token, priority: push.priority, collapseID: push.collapseId,
                                  expiresAt: push.expiresAt.flatMap({ Timestamp.millis($0) }).map { $0 / 1000 },
                                  background: push.background == true)
            }
            return (device, result, "fcm")
        }
        guard let apns else { return none("NoProvider") }
        guard notification.fits else { return none("PayloadTooLarge") }
        let result = await Self.providerCall("APNs send") {
            await apns.deliver(notification, token: device.token, topic: device.bundleId,
                               environment: device.environment ?? "production", apnsID: Self.apnsID(push.pushId, device.deviceId))
        }
        return (device, result, "apns")
    }

    /// A provider call as a span of the push's trace; a push without one (asked before tracing was
    /// on, or by an untraced caller) starts no trace of its own.
    static func providerCall<T>(_ name: String, _ body: () async -> T) async -> T {
        guard InstrumentationContext.current != nil else { return await body() }
        return await withSpan(name, ofKind: .client) { _ in await body() }
    }

    /// Appends the device's outcome (and its invalidation); returns the outcome's sequence.
    func record(_ delivery: APNsClient.Delivery, attempts: Int, provider: String, device: DevicesProjection.Device,
                pushId: String) async throws -> UInt64 {
        let options = AppendOptions(idempotencyKey: "outcome:\(pushId):\(device.deviceId)", actor: "system:notifier")
        switch delivery {
        case .delivered(let apnsID):
            Counter(label: "muster_push_outcomes_total", dimensions: [("provider", provider), ("outcome", "delivered"), ("reason", "none")]).increment()
            return try await log.append(PushDelivered(pushId: pushId, deviceId: device.deviceId, provider: provider, providerId: apnsID),
                                        options: options).sequence
        case .failed(let reason, let status, let invalidates, let since):
            Counter(label: "muster_push_outcomes_total", dimensions: [("provider", provider), ("outcome", "failed"), ("reason", Self.reasonLabel(reason))]).increment()
            // The push's own event: what this process's pushes fold will reach (it never sees the device's).
            let sequence = try await log.append(PushFailed(pushId: pushId, deviceId: device.deviceId, provider: provider, reason: reason,
                                                           status: status, attempts: attempts), options: options).sequence
            if invalidates {
                let invalidated = DeviceInvalidated(deviceId: device.deviceId, token: device.token, provider: provider, reason: reason,
                                                    invalidAt: since.map { Timestamp.string(millis: $0, fraction: true) })
                try await log.append(invalidated, options: AppendOptions(actor: "system:notifier"))
                logger.info("device token invalidated", metadata: ["device": "\(device.deviceId)", "reason": "\(reason)"])
            }
            return sequence
        }
    }

    /// From what the push tells of to the provider's acceptance: what a person waits for.
    static func measureDelivery(_ push: PushRequested, provider: String) {
        guard let triggered = push.triggeredAt.flatMap({ Timestamp.millis($0) }) else { return }
        Metrics.Timer(label: "muster_notification_delivery_seconds", dimensions: [("app", push.app), ("provider", provider)])
            .recordMilliseconds(max(0, Timestamp.millis(Date()) - triggered))
    }

    /// A provider's reason as a metric label: the known ones as they are, anything else `other`
    /// (a label per free-text reason would grow without bound).
    static func reasonLabel(_ reason: String) -> String {
        reason.count <= 40 && reason.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? reason : "other"
    }

    /// When the copy for `device` is due: now, or the push's local time in the device's zone.
    static func due(_ push: PushRequested, for device: DevicesProjection.Device) -> Date {
        guard let local = push.schedule?.localTime.flatMap(LocalTime.parse) else { return .distantPast }
        let zone = device.settings.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .current
        let guess = Date(timeIntervalSince1970: TimeInterval(local))
        return Date(timeIntervalSince1970: TimeInterval(local) - TimeInterval(zone.secondsFromGMT(for: guess)))
    }

    /// A stable `apns-id` per push and device (a UUID from their hash), so Apple's logs and ours agree.
    static func apnsID(_ pushId: String, _ deviceId: String) -> String {
        // Built byte by byte: once per device of every push (String(format:) per byte cost 3.7 % of a busy notifier).
        let hex = Array(Hex.lowercase(SHA256.hash(data: Data("\(pushId):\(deviceId)".utf8)).prefix(16)).uppercased().utf8)
        var id = [UInt8]()
        id.reserveCapacity(36)
        id += hex[0..<8]; id.append(UInt8(ascii: "-"))
        id += hex[8..<12]; id.append(UInt8(ascii: "-"))
        id.append(UInt8(ascii: "4")); id += hex[13..<16]; id.append(UInt8(ascii: "-"))
        id.append(UInt8(ascii: "A")); id += hex[17..<20]; id.append(UInt8(ascii: "-"))
        id += hex[20..<32]
        return String(decoding: id, as: UTF8.self)
    }
}
