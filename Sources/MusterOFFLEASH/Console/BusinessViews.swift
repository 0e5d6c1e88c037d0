import Foundation
import HTTPTypes
import MusterEvents
import MusterPlatform
import MusterRuntime

/// What the business console's pages show, in the business's time zone.
struct BusinessViews: Sendable {
    let walks: Walks

    struct Walk: Sendable {
        let id: String
        let time: String
        let walker: String
        let customer: String
        let pet: String?
        let service: String
        let address: String
        let status: String
        let price: String
        let pending: Bool
    }

    struct WalkerDay: Sendable {
        let walker: String
        let walks: [Walk]
    }

    struct Today: Sendable {
        let requests: [Walk]
        let day: String
        let previous: String
        let next: String
        let walkers: [WalkerDay]
        let zone: String
    }

    /// The day asked for (`YYYY-MM-DD`), or nil for today.
    static func day(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count == 10, Timestamp.millis(day: text) != nil else { throw APIError(.unprocessableContent, "day must be a date like 2026-12-07") }
        return text
    }

    func today(_ admin: AccessClaims, day: String?) async throws -> Today {
        let zone = await walks.timeZone(of: admin.org)
        let (start, label) = Self.dayStart(day, zone: zone)
        let requests = try await walks.pendingRequests(admin).map { walk($0, zone: zone, withDate: true) }
        let next = LocalDates.day(1, after: start, zone)
        let booked = try await walks.businessBookings(admin, from: start, to: next)
        let walkers = try await walks.walkerList(admin)
        let byWalker = Dictionary(grouping: booked, by: \.booking.walkerId)
        let days = walkers.map { w in
            WalkerDay(walker: "\(w.firstName) \(w.lastName)", walks: (byWalker[w.id] ?? []).map { walk($0, zone: zone, withDate: false) })
        }
        return Today(requests: requests, day: label, previous: LocalDates.label(LocalDates.day(-1, after: start, zone), zone), next: LocalDates.label(next, zone),
                     walkers: days, zone: zone.identifier)
    }

    struct WeekDay: Sendable {
        let label: String
        let walks: [Walk]
    }

    struct WalkerWeek: Sendable {
        let walker: String
        let days: [WeekDay]
    }

    struct Week: Sendable {
        let from: String
        let previous: String
        let next: String
        let days: [String]
        let walkers: [WalkerWeek]
        let zone: String
    }

    struct WalkerDayKey: Hashable {
        let walker: String
        let day: String
    }

    func week(_ admin: AccessClaims, from day: String?) async throws -> Week {
        let zone = await walks.timeZone(of: admin.org)
        let (start, label) = Self.dayStart(day, zone: zone)
        let end = LocalDates.day(7, after: start, zone)
        let booked = try await walks.businessBookings(admin, from: start, to: end)
        let walkers = try await walks.walkerList(admin)
        let days = (0..<7).map { LocalDates.label(LocalDates.day($0, after: start, zone), zone) }
        // Each walk's day worked out once (a walk begun the evening before is in no column).
        let byWalkerAndDay = Dictionary(grouping: booked) { WalkerDayKey(walker: $0.booking.walkerId, day: LocalDates.label($0.booking.start, zone)) }
        let rows = walkers.map { w in
            WalkerWeek(walker: "\(w.firstName) \(w.lastName)", days: days.map { day in
                WeekDay(label: day, walks: (byWalkerAndDay[WalkerDayKey(walker: w.id, day: day)] ?? []).map { walk($0, zone: zone, withDate: false) })
            })
        }
        return Week(from: label, previous: LocalDates.label(LocalDates.day(-7, after: start, zone), zone), next: LocalDates.label(end, zone),
                    days: days, walkers: rows, zone: zone.identifier)
    }

    func walk(_ view: BookingView, zone: TimeZone, withDate: Bool) -> Walk {
        let b = view.booking
        return Walk(id: b.bookingId, time: LocalDates.time(b.start, zone, withDate: withDate) + "–" + LocalDates.time(b.end, zone, withDate: false),
                    walker: view.walkerName ?? "?", customer: view.customerName ?? "?", pet: view.petName.flatMap { $0.isEmpty ? nil : $0 }, service: view.serviceName ?? "",
                    address: view.locationAddress ?? "", status: b.status == "cancelled" && b.previousStatus == "pending" ? "declined" : b.status,
                    price: Self.money(b.priceCents), pending: b.status == "pending")
    }

    struct Payment: Sendable {
        let id: String
        let when: String
        let customer: String
        let walker: String
        let total: String
        let status: String
        let refundable: Bool
    }

    struct Payments: Sendable {
        let payments: [Payment]
    }

    func payments(_ admin: AccessClaims) async throws -> Payments {
        let zone = await walks.timeZone(of: admin.org)
        var names: [String: String] = [:]
        func name(_ id: String) async -> String {
            if let known = names[id] { return known }
            let opened = (try? await walks.people.opened(id)).flatMap { $0.map { "\($0.1.firstName) \($0.1.lastName)" } } ?? "someone who left"
            names[id] = opened
            return opened
        }
        var shown: [Payment] = []
        for t in try await walks.businessTransactions(admin) {
            let when = Timestamp.millis(t.createdAt).map { LocalDates.time($0, zone, withDate: true) } ?? t.createdAt
            shown.append(Payment(id: t.priced.transactionId, when: when, customer: await name(t.priced.customerId), walker: await name(t.priced.walkerId),
                                 total: Self.money(t.priced.totalCents), status: t.status, refundable: t.status == "succeeded"))
        }
        return Payments(payments: shown)
    }

    struct Service: Sendable {
        let id: String
        let name: String
        let description: String
        let minutes: Int
        let price: String
        let active: Bool
    }

    struct Services: Sendable {
        let services: [Service]
    }

    func services(_ admin: AccessClaims) async -> Services {
        Services(services: await walks.services(admin, activeOnly: false).map {
            Service(id: $0.serviceId, name: $0.name, description: $0.description ?? "", minutes: $0.durationMinutes,
                    price: String(format: "%.2f", Double($0.priceCents) / 100), active: $0.isActive)
        })
    }

    struct People: Sendable {
        struct Invitation: Sendable {
            let role: String
            let expires: String
        }

        let walkers: [String]
        let invitations: [Invitation]
        let customers: [Walks.Customer]
    }

    func people(_ admin: AccessClaims) async throws -> People {
        let zone = await walks.timeZone(of: admin.org)
        return People(walkers: try await walks.walkerList(admin).map { "\($0.firstName) \($0.lastName)" }.sorted(),
                      invitations: try await walks.pendingInvitations(admin).map { .init(role: $0.role, expires: LocalDates.time($0.expiresAt, zone, withDate: true)) },
                      customers: try await walks.customers(admin))
    }

    // MARK: Formatting

    static func dayStart(_ day: String?, zone: TimeZone) -> (Int64, String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date: Date
        if let day, let millis = Timestamp.millis(day: day) {
            // The UTC midnight of that date, moved to the same date's midnight in the zone.
            let utc = Date(timeIntervalSince1970: Double(millis) / 1000)
            date = utc.addingTimeInterval(-Double(zone.secondsFromGMT(for: utc)))
        } else {
            date = calendar.startOfDay(for: Date())
        }
        let start = Int64(calendar.startOfDay(for: date.addingTimeInterval(1)).timeIntervalSince1970 * 1000)
        return (start, LocalDates.label(start, zone))
    }

    static func money(_ cents: Int) -> String { String(format: "$%.2f", Double(cents) / 100) }
}
