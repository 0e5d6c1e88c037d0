package import Foundation
import MusterEvents
import MusterLog
package import MusterPlatform

/// A recurring series as answers show it.
package struct SeriesView: Sendable, Equatable {
    package var series: OFFLEASHProjection.Series
    /// `active`, `cancelled` or `completed` (no walk left to come).
    package var status: String
    package var completedOccurrences: Int
    package var nextStart: Int64?
    package var notes: String?
    package var serviceName: String?
    package var locationAddress: String?
}

extension Walks {
    package struct SeriesRequest: Sendable {
        package var serviceId: String
        package var locationId: String
        package var frequency: String
        package var dayOfWeek: Int
        package var timeSlot: String
        package var startDate: String
        package var endDate: String?
        package var occurrences: Int?
        package var notes: String?
    }

    /// Books a recurring walk: the series, then each occurrence as a pending booking with one
    /// walker (the free walker who can take the most of them; dates they cannot take are
    /// skipped). 409 when no walker can take any. The same series asked for again (the app sends
    /// no key) answers the one made, until it is cancelled.
    package func createSeries(_ claims: AccessClaims, _ request: SeriesRequest, now: Date = Date()) async throws -> SeriesView {
        try requireRole(claims, .customer, .admin)
        let (service, location) = await runner.read { ($0.services[request.serviceId], $0.locations[request.locationId]) }
        guard let service, claims.belongs(to: service.orgId), service.isActive else { throw OFFLEASHError(.notFound, "no active service \(request.serviceId.prefix(64))") }
        guard let location, claims.owns(location.customerId) else { throw OFFLEASHError(.notFound, "no location \(request.locationId.prefix(64))") }
        let plan = try Self.plan(request)
        let seriesId = await seriesIdentity(request, customer: claims.personId, minuteOfDay: plan.minuteOfDay)
        if let made = await runner.read({ $0.series[seriesId] }), !made.cancelled { return try await seriesView(made, now: now) }

        let notes = request.notes?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        if let notes, notes.count > 1000 { throw OFFLEASHError(.invalidField("notes"), "notes must be at most 1000 characters") }
        let duration = Int64(service.durationMinutes) * 60_000
        let latest = Timestamp.millis(now) + Int64(Self.bookingWindowDays) * 86_400_000
        // Each walker's instants (their own zone) and how many of them they are free for.
        let orgWalkers = await walkers(org: claims.org)
        let choice = await runner.read { state -> (walker: String, zone: String, starts: [Int64])? in
            var best: (walker: String, zone: String, starts: [Int64], load: Int)?
            for walker in orgWalkers {
                guard let roster = state.rosters[walker], let zone = TimeZone(identifier: roster.timeZone) else { continue }
                let starts = plan.days.compactMap { SeriesPlan.instant($0, minuteOfDay: plan.minuteOfDay, zone: zone) }
                    .filter { $0 > Timestamp.millis(now) && $0 <= latest && state.isFree(walker, from: $0, to: $0 + duration) }
                let load = starts.first.map { state.load(walker, around: $0) } ?? 0
                if !starts.isEmpty, best.map({ (starts.count, -load) > ($0.starts.count, -$0.load) }) ?? true {
                    best = (walker, roster.timeZone, starts, load)
                }
            }
            return best.map { ($0.walker, $0.zone, $0.starts) }
        }
        guard let choice else { throw OFFLEASHError(.conflict, "No walker is free at that time on any of those days; pick another time") }

        let sealedNotes = try await notes.asyncMap { try await people.vault.seal($0, for: claims.personId) }
        let created = SeriesCreated(seriesId: seriesId, orgId: claims.org, customerId: claims.personId, walkerId: choice.walker,
                                    serviceId: service.serviceId, locationId: location.locationId, frequency: request.frequency,
                                    dayOfWeek: request.dayOfWeek, timeSlot: request.timeSlot.trimmingCharacters(in: .whitespaces),
                                    minuteOfDay: plan.minuteOfDay, timeZone: choice.zone, startDate: SeriesPlan.text(plan.first),
                                    endDate: request.endDate, occurrences: request.occurrences, priceCents: service.priceCents, sealedNotes: sealedNotes)
        do {
            let last = try await log.lastSequence(app: "offleash", aggregate: "series", id: seriesId)
            try await append(created, actor: claims.personId, options: AppendOptions(expected: last.map { .at($0) } ?? .noEvents))
        } catch let error as AppendError where error.code == .conflict {
            // The same series, asked for twice at once: the other request made it.
            try await catchUp()
            if let made = await runner.read({ $0.series[seriesId] }) { return try await seriesView(made, now: now) }
            throw OFFLEASHError(.conflict, "The series is being made; try again")
        }
        for (index, start) in choice.starts.enumerated() {
            try await bookOccurrence(created, index: index, start: start, end: start + duration)
        }
        guard let made = await runner.read({ $0.series[seriesId] }) else { throw OFFLEASHError(.conflict, "The series is still being recorded; try again") }
        return try await seriesView(made, now: now)
    }

    /// One occurrence on the walker's schedule, skipped when the time was taken meanwhile.
    func bookOccurrence(_ series: SeriesCreated, index: Int, start: Int64, end: Int64) async throws {
        let bookingId = Self.derivedID("series-booking", series.seriesId, String(index))
        let booked = WalkBooked(bookingId: bookingId, walkerId: series.walkerId, customerId: series.customerId, serviceId: series.serviceId,
                                locationId: series.locationId, start: Timestamp.string(millis: start, fraction: false),
                                end: Timestamp.string(millis: end, fraction: false), priceCents: series.priceCents,
                                sealedNotes: series.sealedNotes, seriesId: series.seriesId)
        for _ in 0..<8 {
            let (free, expected, exists) = await runner.read { state in
                (state.isFree(series.walkerId, from: start, to: end), state.scheduleSequence[series.walkerId], state.bookings[bookingId] != nil)
            }
            guard !exists, free else { return }
            do {
                try await append(booked, actor: series.customerId, options: AppendOptions(idempotencyKey: "series:\(bookingId)",
                                                                                         expected: expected.map { .at($0) } ?? .noEvents))
                return
            } catch let error as AppendError where error.code == .conflict {
                try await catchUp()
            }
        }
    }

    /// The customer's series, newest first.
    package func series(_ claims: AccessClaims, now: Date = Date()) async throws -> [SeriesView] {
        let mine = await runner.read { state in state.series.values.filter { claims.owns($0.created.customerId, in: $0.created.orgId) } }
            .sorted { ($0.sequence, $0.created.seriesId) > ($1.sequence, $1.created.seriesId) }
        var views: [SeriesView] = []
        for series in mine { views.append(try await seriesView(series, now: now)) }
        return views
    }

    /// Cancels every walk of the series still to come (past ones are kept), then the series.
    /// Only its customer; only while it is active.
    package func cancelSeries(_ claims: AccessClaims, seriesId: String, now: Date = Date()) async throws -> Int {
        guard let series = await runner.read({ $0.series[seriesId] }), claims.owns(series.created.customerId) else {
            throw OFFLEASHError(.notFound, "no recurring series \(seriesId.prefix(64))")
        }
        guard try await seriesView(series, now: now).status == "active" else { throw OFFLEASHError(.conflict, "the series is not active") }
        let upcoming = await runner.read { state in
            series.bookingIds.compactMap { state.bookings[$0] }
                .filter { ["pending", "confirmed"].contains($0.status) && $0.start > Timestamp.millis(now) }.map(\.bookingId)
        }
        for bookingId in upcoming { _ = try await change(claims, bookingId: bookingId, to: "cancelled", now: now) }
        let expected = await runner.read { $0.series[seriesId]?.sequence }
        try await append(SeriesCancelled(seriesId: seriesId, customerId: claims.personId), actor: claims.personId,
                         options: AppendOptions(expected: expected.map { .at($0) } ?? .any))
        return upcoming.count
    }

    func seriesView(_ series: OFFLEASHProjection.Series, now: Date) async throws -> SeriesView {
        let bookings = await runner.read { state in series.bookingIds.compactMap { state.bookings[$0] } }
        let nowMillis = Timestamp.millis(now)
        let upcoming = bookings.filter { ["pending", "confirmed", "in_progress"].contains($0.status) && $0.end > nowMillis }
        let status = series.cancelled ? "cancelled" : upcoming.isEmpty ? "completed" : "active"
        let created = series.created
        let (service, location) = await runner.read { ($0.services[created.serviceId], $0.locations[created.locationId]) }
        let notes = try await created.sealedNotes.asyncMap { try await people.vault.open(String.self, $0, for: created.customerId) } ?? nil
        let address = try await location.asyncMap { try await people.vault.open(LocationDetails.self, $0.sealed, for: created.customerId) } ?? nil
        return SeriesView(series: series, status: status, completedOccurrences: bookings.filter { $0.status == "completed" }.count,
                          nextStart: upcoming.map(\.start).min(), notes: notes, serviceName: service?.name, locationAddress: address?.fullAddress)
    }

    /// The series' id: from what it books, so the same request twice is the same series (a new
    /// one once that is cancelled).
    func seriesIdentity(_ request: SeriesRequest, customer: String, minuteOfDay: Int) async -> String {
        var round = 0
        while true {
            let id = Self.derivedID("series", customer, request.serviceId, request.locationId, request.frequency, String(request.dayOfWeek),
                                    String(minuteOfDay), String(round))
            guard await runner.read({ $0.series[id]?.cancelled == true }) else { return id }
            round += 1
        }
    }

    /// The request read: its time of day and its local dates.
    static func plan(_ request: SeriesRequest) throws -> (minuteOfDay: Int, first: Date, days: [Date]) {
        guard SeriesCreated.frequencies.contains(request.frequency) else {
            throw OFFLEASHError(.invalidField("frequency"), "frequency must be weekly, biweekly or monthly")
        }
        guard (0...6).contains(request.dayOfWeek) else { throw OFFLEASHError(.invalidField("day_of_week"), "day_of_week must be 0 (Sunday) to 6") }
        guard let minute = SeriesPlan.minuteOfDay(request.timeSlot) else {
            throw OFFLEASHError(.invalidField("start_time"), "start_time must be a time of day like 9:00 AM or 09:00")
        }
        guard let start = SeriesPlan.day(request.startDate), let first = SeriesPlan.firstDay(startDate: start, dayOfWeek: request.dayOfWeek) else {
            throw OFFLEASHError(.invalidField("start_date"), "start_date must be YYYY-MM-DD")
        }
        guard (request.endDate == nil) != (request.occurrences == nil) else {
            throw OFFLEASHError(.invalidField("occurrences"), "send either end_date or occurrences")
        }
        var until: Date?
        if let endDate = request.endDate {
            guard let end = SeriesPlan.day(endDate), end >= start else { throw OFFLEASHError(.invalidField("end_date"), "end_date must be YYYY-MM-DD, not before start_date") }
            guard end.timeIntervalSince(start) <= 366 * 86_400 else { throw OFFLEASHError(.invalidField("end_date"), "a series lasts at most a year") }
            until = end
        }
        if let occurrences = request.occurrences, !(2...52).contains(occurrences) {
            throw OFFLEASHError(.invalidField("occurrences"), "occurrences must be 2 to 52")
        }
        let days = SeriesPlan.days(from: first, frequency: request.frequency, count: request.occurrences, until: until)
        return (minute, first, days)
    }
}
