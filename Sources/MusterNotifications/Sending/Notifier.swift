import Foundation
package import Logging
import Metrics
import MusterEvents
package import MusterLog
package import MusterPlatform
import MusterPush

/// Decides, per channel, what happens to a notice, records the decision, and hands the message
/// to its channel. Every decision is one event on a subject of its own, appended expecting that
/// subject empty: whichever notifier gets there first decides, a second finds it decided.
///
/// A push is requested (with an id derived from the decision, so asking twice asks once) before
/// its decision is recorded: a notifier killed in between leaves the decision to the next one,
/// which finds the push already asked for. Mail and texts go out after their decision is
/// recorded: a notifier killed in between loses that one mail, and never sends one twice.
package struct Notifier: Sendable {
    let log: EventLog
    let notifications: ProjectionRunner<NotificationsProjection>
    let devices: ProjectionRunner<DevicesProjection>
    let people: People
    let directory: NotificationDirectory
    let mail: MailClient?
    let sms: SMSClient?
    /// Where the unsubscribe links in mails point (`https://muster.example.org`).
    let publicURL: String
    let logger: Logger

    package init(log: EventLog, notifications: ProjectionRunner<NotificationsProjection>, devices: ProjectionRunner<DevicesProjection>,
                 people: People, directory: NotificationDirectory, mail: MailClient?, sms: SMSClient?, publicURL: String, logger: Logger) {
        self.log = log
        self.notifications = notifications
        self.devices = devices
        self.people = people
        self.directory = directory
        self.mail = mail
        self.sms = sms
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.logger = logger
    }

    static let actor = "system:notifier"

    // MARK: What the apps' rules ask for

    /// Carries out what a rule asked for when `trigger` happened (the `index`th of its actions).
    /// Safe to repeat: every append names the trigger, so a redelivered event changes nothing.
    /// Returns the sequence of what it scheduled or cancelled, if anything: the caller waits for the
    /// fold to have it before the trigger's next event (`NotificationRules`), not after each action.
    @discardableResult
    func handle(_ action: NotificationAction, trigger: RecordedEvent, index: Int, now: Date = Date()) async throws -> UInt64? {
        let idempotency = "notify:\(trigger.id):\(index)"
        switch action {
        case .send(let notice):
            guard let category = directory.category(app: notice.app, notice.category) else {
                logger.error("a rule named a category its app does not declare", metadata: ["app": "\(notice.app)", "category": "\(notice.category)"])
                return nil
            }
            if let gathering = category.gathering {
                // Wait for the thing to settle: each notice about it moves the message later, up to four waits after the first.
                let key = "gather:\(notice.app):\(notice.category):\(notice.about):\(notice.recipient)"
                let first = await notifications.read { $0.pending[key]?.firstAt } ?? Timestamp.millis(now)
                let wait = Int64(gathering.components.seconds) * 1000
                let due = min(Timestamp.millis(now) + wait, first + 4 * wait)
                return try await schedule(key: key, notice: notice, due: due, channels: category.channels, reason: "gathering", idempotency: idempotency)
            } else {
                try await decide(notice, key: "now:\(trigger.id):\(index)", version: trigger.sequence, channels: category.channels,
                                 triggeredAt: trigger.time, now: now)
                return nil
            }
        case .remind(let notice, let at, let key):
            guard let category = directory.category(app: notice.app, notice.category) else { return nil }
            guard at > now else { return nil } // a reminder for a moment already past is no reminder
            return try await schedule(key: key, notice: notice, due: Timestamp.millis(at), channels: category.channels, reason: "reminder",
                                      idempotency: idempotency)
        case .cancel(let key):
            let waiting = await notifications.read { state in
                state.pending[key] != nil || NotificationChannel.allCases.contains { state.pending["\(key)|\($0.rawValue)"] != nil }
            }
            guard waiting else { return nil }
            return try await log.append(NotificationCancelled(key: key, reason: "changed"),
                                        options: AppendOptions(idempotencyKey: idempotency, actor: Self.actor)).sequence
        }
    }

    /// Appends the message due at `due`; its sequence.
    func schedule(key: String, notice: Notice, due: Int64, channels: [NotificationChannel], reason: String, idempotency: String) async throws -> UInt64 {
        let event = NotificationScheduled(key: key, notice: notice, dueAt: Timestamp.string(millis: due), channels: channels.map(\.rawValue),
                                          reason: reason)
        return try await log.append(event, options: AppendOptions(idempotencyKey: idempotency, actor: Self.actor)).sequence
    }

    // MARK: Deciding

    /// Decides each of `channels` for the notice, as the person's preferences and quiet hours say.
    func decide(_ notice: Notice, key: String, version: UInt64, channels: [NotificationChannel], triggeredAt: String?, now: Date = Date()) async throws {
        // A device without an account has no settings of its own: the app's defaults hold for it.
        let preferences = await notifications.read { state in notice.personId.flatMap { state.preferences(app: notice.app, personId: $0) } }
        let category = directory.category(app: notice.app, notice.category)
        let urgent = notice.urgent ?? category?.urgent ?? false
        // Each channel is a decision of its own: decided side by side.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for channel in channels {
                group.addTask {
                    let decision = NotificationDecision(key: key, version: version, notice: notice, channel: channel)
                    let wanted = preferences?.categories[notice.category].map { $0.contains(channel.rawValue) }
                        ?? category?.defaults.contains(channel) ?? false
                    guard wanted else {
                        try await record(NotificationSuppressed(decision: decision, reason: "preference"), outcome: "suppressed")
                        return
                    }
                    if !urgent, let until = preferences?.quietHours?.end(containing: now) {
                        try await record(NotificationDeferred(decision: decision, until: Timestamp.string(until), reason: "quiet-hours", notice: notice),
                                         outcome: "deferred")
                        return
                    }
                    switch channel {
                    case .push: try await push(notice, decision: decision, triggeredAt: triggeredAt)
                    case .email: try await mail(notice, decision: decision)
                    case .sms: try await text(notice, decision: decision)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Appends a decision unless another notifier made it first; false then.
    @discardableResult
    func record(_ decision: some EventPayload, outcome: String) async throws -> Bool {
        do {
            try await log.append(decision, options: AppendOptions(expected: .noEvents, actor: Self.actor))
        } catch let error as AppendError where error.code == .conflict {
            return false
        }
        if let about = (decision as? NotificationSent)?.decision ?? (decision as? NotificationSuppressed)?.decision
            ?? (decision as? NotificationDeferred)?.decision {
            Counter(label: "muster_notifications_total",
                    dimensions: [("app", about.app), ("category", about.category), ("channel", about.channel), ("outcome", outcome)]).increment()
        }
        return true
    }

    func push(_ notice: Notice, decision: NotificationDecision, triggeredAt: String?) async throws {
        let pushId = HexIDs.derived("psh_", from: decision.decisionId)
        let audience = notice.personId.map { PushAudience(personIds: [$0]) } ?? PushAudience(deviceIds: [notice.deviceId ?? ""])
        let request = PushRequested(pushId: pushId, app: notice.app, audience: audience,
                                    message: PushMessage(title: notice.title, body: notice.body, screen: notice.screen, id: notice.id),
                                    collapseId: Self.collapseID(notice), requestedBy: Self.actor, triggeredAt: triggeredAt)
        let reaches = await devices.read { !Recipients.resolve(request, in: $0).isEmpty }
        guard reaches else {
            try await record(NotificationSuppressed(decision: decision, reason: "no-device"), outcome: "suppressed")
            return
        }
        do {
            try await log.append(request, options: AppendOptions(expected: .noEvents, actor: Self.actor))
        } catch let error as AppendError where error.code == .conflict {
            // Asked already, by a notifier that did not live to record its decision (or by the other one).
        }
        try await record(NotificationSent(decision: decision, pushId: pushId), outcome: "sent")
    }

    func mail(_ notice: Notice, decision: NotificationDecision) async throws {
        guard let mail else {
            try await record(NotificationSuppressed(decision: decision, reason: "no-provider"), outcome: "suppressed")
            return
        }
        guard let personId = notice.personId, let personal = try await people.opened(personId)?.1 else {
            try await record(NotificationSuppressed(decision: decision, reason: "no-address"), outcome: "suppressed")
            return
        }
        guard try await record(NotificationSent(decision: decision, pushId: nil), outcome: "sent") else { return }
        let link = try await unsubscribeLink(notice)
        let text = (notice.mailText ?? notice.body) + "\n\n--\nYou get this because of your \(notice.app) notification settings. "
            + "Stop these emails: \(link)\n"
        do {
            try await Self.patiently {
                try await mail.send(to: personal.email, subject: notice.mailSubject ?? notice.title, body: text,
                                    headers: ["List-Unsubscribe": "<\(link)>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"])
            }
        } catch {
            Counter(label: "muster_notification_failures_total", dimensions: [("app", notice.app), ("channel", "email")]).increment()
            logger.error("a notification mail could not be sent", metadata: ["decision": "\(decision.decisionId)", "error": "\(error)"])
        }
    }

    func text(_ notice: Notice, decision: NotificationDecision) async throws {
        guard let sms else {
            try await record(NotificationSuppressed(decision: decision, reason: "no-provider"), outcome: "suppressed")
            return
        }
        guard let personId = notice.personId, let phone = try await people.opened(personId)?.1.phone else {
            try await record(NotificationSuppressed(decision: decision, reason: "no-address"), outcome: "suppressed")
            return
        }
        guard try await record(NotificationSent(decision: decision, pushId: nil), outcome: "sent") else { return }
        do {
            try await Self.patiently { try await sms.send(to: phone, body: "\(notice.title): \(notice.body)") }
        } catch {
            Counter(label: "muster_notification_failures_total", dimensions: [("app", notice.app), ("channel", "sms")]).increment()
            logger.error("a notification text could not be sent", metadata: ["decision": "\(decision.decisionId)", "error": "\(error)"])
        }
    }

    /// Three tries, a second apart: a provider's brief outage does not lose the message.
    static func patiently(_ body: () async throws -> Void) async throws {
        for attempt in 1...3 {
            do { return try await body() } catch where attempt < 3 {
                try await Task.sleep(for: .seconds(attempt))
            }
        }
    }

    /// One collapse id per category and thing: a newer push about it replaces the older on the phone.
    static func collapseID(_ notice: Notice) -> String {
        String(HexIDs.derived("\(notice.category.prefix(40))-", from: notice.about).prefix(64))
    }

    // MARK: Unsubscribing

    /// The one-click link that turns this category's mail off for the person (RFC 8058).
    func unsubscribeLink(_ notice: Notice) async throws -> String {
        let personId = notice.personId ?? ""
        let token = try await Self.unsubscribeToken(people: people, app: notice.app, personId: personId, category: notice.category)
        return "\(publicURL)/api/\(notice.app)/notifications/unsubscribe?person=\(personId)&category=\(notice.category)&token=\(token)"
    }

    /// A keyed hash of who and what: only the server makes one, and it names one category of one person.
    package static func unsubscribeToken(people: People, app: String, personId: String, category: String) async throws -> String {
        try await people.keyedHash("unsubscribe\n\(app)\n\(personId)\n\(category)")
    }
}
