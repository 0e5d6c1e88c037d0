import Foundation
package import MusterEvents
package import MusterLog
package import MusterNotifications

/// What PoP tells the installs and learners that follow its calendar: a reminder 24 hours and one
/// hour before a followed event (moved with it, dropped when it is cancelled), that a followed event
/// moved or was cancelled, and that a followed bill's status changed.
package enum PoPNotifications {
    package static let app = PoPRoutes.app
    static let leads: [(name: String, seconds: TimeInterval)] = [("24h", 86_400), ("1h", 3_600)]

    package static let categories: [NotificationCategory] = [
        NotificationCategory("event-reminder", "Reminders before events you follow", channels: [.push, .email], defaults: [.push]),
        NotificationCategory("event-changed", "An event you follow moved or was cancelled", channels: [.push, .email], defaults: [.push]),
        NotificationCategory("bill-status", "A bill you follow changed status", channels: [.push, .email], defaults: [.push]),
    ]

    package static func declaration(runner: ProjectionRunner<CalendarProjection>) -> AppNotifications {
        AppNotifications(app: app, categories: categories, subjects: ["events.pop.calendar.>", "events.pop.bill.>", "events.pop.follow.>"]) { event in
            _ = await runner.waitUntilApplied(event.sequence, timeout: .seconds(10))
            return await runner.read { actions(for: event, in: $0) }
        }
    }

    /// The messages one event asks for, given the fold that applied it. Pure.
    package static func actions(for event: RecordedEvent, in state: CalendarProjection.State) -> [NotificationAction] {
        switch event.payload {
        case let published as CivicEventPublished:
            guard let stored = state.events[published.eventId] else { return [] }
            let followers = (state.followers[published.eventId] ?? []).sorted()
            if published.cancelled == true {
                return followers.flatMap { follower in
                    [.send(notice(stored, to: follower, "event-changed", "Cancelled: \(published.title)", "This event will not take place."))]
                        + leads.map { NotificationAction.cancel(key: reminderKey(stored, follower, $0.name)) }
                }
            }
            let moved = stored.previousStart.map { _ in
                followers.map { NotificationAction.send(notice(stored, to: $0, "event-changed", "Moved: \(published.title)", "Now \(when(stored)).")) }
            } ?? []
            return moved + followers.flatMap { reminders(stored, for: $0) }
        case let follow as FollowChanged where follow.kind == "event":
            guard let stored = state.events[follow.id], stored.published.cancelled != true else { return [] }
            let follower = CalendarProjection.Follower(deviceId: follow.deviceId, personId: follow.personId)
            return follow.following ? reminders(stored, for: follower) : leads.map { .cancel(key: reminderKey(stored, follower, $0.name)) }
        case let tracked as BillTracked:
            guard let bill = state.bills[tracked.billId], bill.previousStatus != nil else { return [] }
            return (state.followers[tracked.billId] ?? []).sorted().map { follower in
                .send(Notice(app: app, category: "bill-status", personId: follower.personId, deviceId: follower.deviceId, about: "bill:\(tracked.billId)",
                             title: "\(tracked.number): \(tracked.status)", body: tracked.title, screen: "bill", id: tracked.billId,
                             mailSubject: "PoP: \(tracked.number) is now \(tracked.status)"))
            }
        default:
            return []
        }
    }

    static func reminders(_ event: CalendarProjection.Event, for follower: CalendarProjection.Follower) -> [NotificationAction] {
        guard let start = Timestamp.millis(event.published.start) else { return [] }
        return leads.map { lead in
            let title = lead.name == "1h" ? "In an hour: \(event.published.title)" : "Tomorrow: \(event.published.title)"
            return .remind(notice(event, to: follower, "event-reminder", title, "\(when(event)) at \(event.published.place)."),
                           at: Date(timeIntervalSince1970: Double(start) / 1000 - lead.seconds), key: reminderKey(event, follower, lead.name))
        }
    }

    static func reminderKey(_ event: CalendarProjection.Event, _ follower: CalendarProjection.Follower, _ lead: String) -> String {
        "pop:event-reminder:\(event.published.eventId):\(follower.key):\(lead)"
    }

    static func notice(_ event: CalendarProjection.Event, to follower: CalendarProjection.Follower, _ category: String, _ title: String,
                       _ body: String) -> Notice {
        Notice(app: app, category: category, personId: follower.personId, deviceId: follower.deviceId, about: "event:\(event.published.eventId)",
               title: String(title.prefix(200)), body: body, screen: "event", id: event.published.eventId, mailSubject: "PoP: \(title.prefix(180))")
    }

    /// "Tue 15 Dec, 18:00" in the event's own zone.
    static func when(_ event: CalendarProjection.Event) -> String {
        guard let start = Timestamp.millis(event.published.start) else { return event.published.start }
        let zone = TimeZone(identifier: event.published.timeZone) ?? .gmt
        let date = Date(timeIntervalSince1970: Double(start) / 1000)
        return date.formatted(Date.FormatStyle(timeZone: zone).weekday(.abbreviated).day().month(.abbreviated)) + ", "
            + date.formatted(Date.FormatStyle(timeZone: zone).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits))
    }
}
