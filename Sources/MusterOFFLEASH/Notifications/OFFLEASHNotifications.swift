package import Foundation
package import MusterEvents
package import MusterLog
package import MusterNotifications

/// What OFFLEASH tells its people: a walker hears of a new request; a customer hears that their
/// walk was confirmed, declined, cancelled, moved or completed (with the amount charged); the
/// other party hears of a cancellation or a move too; both are reminded an hour before a
/// confirmed walk, and a moved or cancelled walk moves or drops its reminders.
package enum OFFLEASHNotifications {
    package static let app = OFFLEASHApp.appName
    static let reminderLead: TimeInterval = 3600

    package static let categories: [NotificationCategory] = [
        NotificationCategory("walk-requested", "A customer asked for a walk", channels: [.push, .email], defaults: [.push, .email]),
        NotificationCategory("walk-confirmed", "Your walker confirmed a walk", channels: [.push, .email], defaults: [.push, .email]),
        NotificationCategory("walk-declined", "Your walker could not take a walk", channels: [.push, .email], defaults: [.push, .email]),
        NotificationCategory("walk-cancelled", "A walk was cancelled", channels: [.push, .email], defaults: [.push, .email]),
        NotificationCategory("walk-rescheduled", "A walk was moved", channels: [.push, .email], defaults: [.push, .email],
                             gathering: .seconds(30)),
        NotificationCategory("walk-completed", "A walk is done, and what it cost", channels: [.push, .email], defaults: [.push, .email]),
        NotificationCategory("walk-reminder", "A reminder an hour before a walk", channels: [.push, .email], defaults: [.push]),
    ]

    package static func declaration(runner: ProjectionRunner<OFFLEASHProjection>) -> AppNotifications {
        AppNotifications(app: app, categories: categories, subjects: ["events.offleash.schedule.>"]) { event in
            // The rules read the booking as the event left it.
            _ = await runner.waitUntilApplied(event.sequence, timeout: .seconds(10))
            return await runner.read { actions(for: event, in: $0) }
        }
    }

    /// The messages one event asks for, given the fold that applied it. Pure.
    package static func actions(for event: RecordedEvent, in state: OFFLEASHProjection.State, now: Date = Date()) -> [NotificationAction] {
        switch event.payload {
        case let booked as WalkBooked:
            guard let booking = state.bookings[booked.bookingId] else { return [] }
            let what = describe(booking, in: state)
            return [.send(notice(booking, to: booking.walkerId, "walk-requested", "New walk request",
                                 "A customer asked for \(what). Confirm or decline it in the app."))]
        case let changed as WalkChanged:
            guard let booking = state.bookings[changed.bookingId] else { return [] }
            let what = describe(booking, in: state)
            let soon = Double(booking.start) / 1000 - now.timeIntervalSince1970 < reminderLead
            switch changed.change {
            case "confirmed":
                return [.send(notice(booking, to: booking.customerId, "walk-confirmed", "Walk confirmed", "Your \(what) is confirmed."))]
                    + reminders(booking, what: what)
            case "cancelled":
                let cancelReminders = [booking.customerId, booking.walkerId].map { NotificationAction.cancel(key: reminderKey(booking, $0)) }
                if changed.by == OFFLEASHRole.walker.rawValue, booking.previousStatus == "pending" {
                    return [.send(notice(booking, to: booking.customerId, "walk-declined", "Walk request declined",
                                         "Your walker can't take the \(what). Book another time or another walker."))] + cancelReminders
                }
                let told = changed.by == OFFLEASHRole.customer.rawValue ? [booking.walkerId]
                    : changed.by == OFFLEASHRole.walker.rawValue ? [booking.customerId] : [booking.customerId, booking.walkerId]
                return told.map { person in
                    .send(notice(booking, to: person, "walk-cancelled", "Walk cancelled", "The \(what) is cancelled.", urgent: soon))
                } + cancelReminders
            case "rescheduled":
                let told = changed.by == OFFLEASHRole.customer.rawValue ? [booking.walkerId] : [booking.customerId]
                let moved = told.map { person in
                    NotificationAction.send(notice(booking, to: person, "walk-rescheduled", "Walk moved", "The walk is now \(what).", urgent: soon))
                }
                return moved + (booking.status == "confirmed" ? reminders(booking, what: what) : [])
            case "completed":
                let charged = state.transactionsByBooking[booking.bookingId]?.compactMap { state.transactions[$0] }
                    .last { $0.status == "succeeded" }?.priced.totalCents ?? booking.priceCents
                return [.send(notice(booking, to: booking.customerId, "walk-completed", "Walk completed",
                                     "Your \(what) is done. Charged \(dollars(charged)).")),
                        .cancel(key: reminderKey(booking, booking.customerId)), .cancel(key: reminderKey(booking, booking.walkerId))]
            default:
                return []
            }
        default:
            return []
        }
    }

    static func reminders(_ booking: OFFLEASHProjection.Booking, what: String) -> [NotificationAction] {
        let at = Date(timeIntervalSince1970: Double(booking.start) / 1000 - reminderLead)
        return [booking.customerId, booking.walkerId].map { person in
            .remind(notice(booking, to: person, "walk-reminder", "Walk in an hour", "Your \(what) starts in an hour."), at: at,
                    key: reminderKey(booking, person))
        }
    }

    static func reminderKey(_ booking: OFFLEASHProjection.Booking, _ personId: String) -> String {
        "offleash:walk-reminder:\(booking.bookingId):\(personId)"
    }

    static func notice(_ booking: OFFLEASHProjection.Booking, to personId: String, _ category: String, _ title: String, _ body: String,
                       urgent: Bool? = nil) -> Notice {
        Notice(app: app, category: category, personId: personId, about: "booking:\(booking.bookingId)", title: title, body: body,
               screen: "booking", id: booking.bookingId, mailSubject: "OFFLEASH: \(title.lowercased())", urgent: urgent == true ? true : nil)
    }

    /// "Standard walk on Sat 12 Dec at 14:00 UTC".
    static func describe(_ booking: OFFLEASHProjection.Booking, in state: OFFLEASHProjection.State) -> String {
        "\(state.services[booking.serviceId]?.name ?? "walk") on \(when(booking.start))"
    }

    /// "Sat 12 Dec at 14:00 UTC": on a 24-hour clock (the `Date.FormatStyle` this replaced wrote a
    /// 12-hour one without AM or PM, "Sat, 12 Dec at 02:00 UTC" for a walk at two in the afternoon).
    static func when(_ start: Int64) -> String {
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        return "\(LocalDates.date(start, utc)) at \(LocalDates.time(start, utc, withDate: false)) UTC"
    }

    static func dollars(_ cents: Int) -> String {
        "$\(cents / 100).\(String(format: "%02d", cents % 100))"
    }
}
