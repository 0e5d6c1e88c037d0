package import Foundation
import MusterEvents
import MusterNATS
import MusterLog
package import MusterPlatform
import MusterRuntime

/// A booking as answers show it.
package struct BookingView: Sendable, Equatable {
    package var booking: OFFLEASHProjection.Booking
    package var notes: String?
    package var serviceName: String?
    package var locationAddress: String?
    /// What the lists add: the place's coordinates, both people's names, the customer's phone (the
    /// walker's Call button) and their pet when they have exactly one (a walk names no pet).
    package var latitude: Double?
    package var longitude: Double?
    package var customerName: String?
    package var customerPhone: String?
    package var walkerName: String?
    package var petName: String?
    package var petBreed: String?
}

/// A free slot of a day: when, and how many walkers could take it.
package struct Slot: Sendable, Equatable {
    package var start: Int64
    package var end: Int64
    package var walkers: Int
}

extension Walks {
    package struct BookingRequest: Sendable {
        package var walkerId: String?
        package var serviceId: String
        package var locationId: String
        package var start: Int64
        package var notes: String?
        package var idempotencyKey: String?
    }

    /// Books a walk. With no walker named, the free walker with the fewest walks that day gets it.
    /// Each try appends with the walker's schedule sequence expected: when another request took
    /// the slot first the log refuses, the fold catches up and the next walker is tried. A retry
    /// with the same `Idempotency-Key` answers the booking it made.
    package func book(_ claims: AccessClaims, _ request: BookingRequest, now: Date = Date()) async throws -> BookingView {
        try requireRole(claims, .customer, .admin)
        let (bookingId, dedupe) = await identity(of: request, customer: claims.personId)
        if let earlier = try await existingBooking(bookingId, customer: claims.personId) { return earlier }

        let (service, location) = await runner.read { ($0.services[request.serviceId], $0.locations[request.locationId]) }
        guard let service, claims.belongs(to: service.orgId), service.isActive else { throw OFFLEASHError(.notFound, "no active service \(request.serviceId.prefix(64))") }
        guard let location, claims.owns(location.customerId) else { throw OFFLEASHError(.notFound, "no location \(request.locationId.prefix(64))") }
        guard request.start > Timestamp.millis(now) else { throw OFFLEASHError(.invalidField("start_time"), "start_time must be in the future") }
        try Self.checkWindow(request.start, now: now)
        let end = request.start + Int64(service.durationMinutes) * 60_000
        let notes = request.notes?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        if let notes, notes.count > 1000 { throw OFFLEASHError(.invalidField("notes"), "notes must be at most 1000 characters") }
        let sealedNotes = try await notes.asyncMap { try await people.vault.seal($0, for: claims.personId) }

        let orgWalkers = await walkers(org: claims.org)
        if let named = request.walkerId, !orgWalkers.contains(named) { throw OFFLEASHError(.notFound, "no walker \(named.prefix(64))") }
        for _ in 0..<8 {
            let (candidates, sequences) = await runner.read { state -> ([String], [String: UInt64]) in
                let free = (request.walkerId.map { [$0] } ?? orgWalkers).filter { state.isFree($0, from: request.start, to: end) }
                let load = { (walker: String) in state.load(walker, around: request.start) }
                return (free.sorted { (load($0), $0) < (load($1), $1) }, state.scheduleSequence)
            }
            guard let walker = candidates.first else {
                // The same booking, made meanwhile by the same request sent twice, took the slot.
                if let made = try await existingBooking(bookingId, customer: claims.personId) { return made }
                throw OFFLEASHError(.conflict, request.walkerId == nil ? "No walker is free at that time" : "That walker is not free at that time")
            }
            let booked = WalkBooked(bookingId: bookingId, walkerId: walker, customerId: claims.personId, serviceId: service.serviceId,
                                    locationId: location.locationId, start: Timestamp.string(millis: request.start, fraction: false),
                                    end: Timestamp.string(millis: end, fraction: false), priceCents: service.priceCents, sealedNotes: sealedNotes)
            let options = AppendOptions(idempotencyKey: dedupe,
                                        expected: sequences[walker].map { .at($0) } ?? .noEvents)
            do {
                try await append(booked, actor: claims.personId, options: options)
                if let made = try await existingBooking(bookingId, customer: claims.personId) { return made }
                throw OFFLEASHError(.conflict, "the booking is still being recorded; retry with the same Idempotency-Key")
            } catch let error as AppendError where error.code == .conflict {
                // Someone else changed that walker's schedule first: read it again and choose again.
                try await catchUp()
                if let made = try await existingBooking(bookingId, customer: claims.personId) { return made }
            }
        }
        throw OFFLEASHError(.conflict, "The schedule is busy; try again")
    }

    /// The booking's id and the log's de-duplication key. With an `Idempotency-Key`, both come
    /// from it. Without one (the app sends none, and a second tap after its 30 s timeout sends the
    /// same body again), from what is booked: the same customer, service, place and start is the
    /// same booking, until it is cancelled (then the next such request is a new one).
    func identity(of request: BookingRequest, customer: String) async -> (bookingId: String, dedupe: String) {
        if let key = request.idempotencyKey { return (Self.derivedID("booking", customer, key), "\(customer):\(key)") }
        var round = 0
        while true {
            let id = Self.derivedID("booking-content", customer, request.serviceId, request.locationId, String(request.start), String(round))
            guard await runner.read({ $0.bookings[id]?.status == "cancelled" }) else { return (id, "\(customer):content:\(id)") }
            round += 1
        }
    }

    /// The free slots of `date` (`YYYY-MM-DD`) for a service: every half hour at which at least one
    /// walker works and has nothing booked for the service's whole duration.
    package func slots(_ claims: AccessClaims, serviceId: String, locationId: String, date: String, now: Date = Date()) async throws -> [Slot] {
        let (service, location) = await runner.read { ($0.services[serviceId], $0.locations[locationId]) }
        guard let service, claims.belongs(to: service.orgId), service.isActive else { throw OFFLEASHError(.notFound, "no active service \(serviceId.prefix(64))") }
        guard let location, claims.owns(location.customerId) || claims.holds(.admin) else {
            throw OFFLEASHError(.notFound, "no location \(locationId.prefix(64))")
        }
        _ = location
        let parts = date.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, Timestamp.millis(day: date) != nil else {
            throw OFFLEASHError(.invalidField("date"), "date must be YYYY-MM-DD")
        }
        let walkers = await walkers(org: claims.org)
        let earliest = Timestamp.millis(now)
        return await runner.read { state in
            var free: [Int64: Int] = [:]
            for walker in walkers {
                guard let roster = state.rosters[walker] else { continue }
                for start in Schedule.candidateStarts(roster, date: date, durationMinutes: service.durationMinutes) where start > earliest {
                    if state.isFree(walker, from: start, to: start + Int64(service.durationMinutes) * 60_000) { free[start, default: 0] += 1 }
                }
            }
            return free.keys.sorted().map { Slot(start: $0, end: $0 + Int64(service.durationMinutes) * 60_000, walkers: free[$0] ?? 0) }
        }
    }

    /// The customer's bookings (`asWalker` false) or the walker's, soonest first.
    package func bookings(_ claims: AccessClaims, asWalker: Bool) async throws -> [BookingView] {
        if asWalker { try requireRole(claims, .walker) }
        let (found, onlyPets) = await runner.read { state in
            let found = state.bookings.values.filter { claims.owns(asWalker ? $0.walkerId : $0.customerId) }
            // Each customer's pet when they have exactly one: one pass over the pets for the whole list.
            let customers = Set(found.map(\.customerId))
            var pets: [String: [String]] = [:]
            for pet in state.pets.values where customers.contains(pet.customerId) { pets[pet.customerId, default: []].append(pet.sealed) }
            return (found, pets.compactMapValues { $0.count == 1 ? $0[0] : nil })
        }
        var views: [BookingView] = []
        for booking in found.sorted(by: { ($0.start, $0.bookingId) < ($1.start, $1.bookingId) }) {
            views.append(try await view(booking, listed: true, onlyPet: onlyPets[booking.customerId]))
        }
        return views
    }

    /// Confirms, cancels, completes or moves a booking, as the person's role may.
    ///
    /// customer: cancel or reschedule their own pending or confirmed walk; walker: confirm, cancel
    /// or complete their own; admin: all of these in their organisation.
    package func change(_ claims: AccessClaims, bookingId: String, to change: String, newStart: Int64? = nil, now: Date = Date()) async throws -> BookingView {
        for _ in 0..<8 {
            guard let booking = await runner.read({ $0.bookings[bookingId] }) else { throw OFFLEASHError(.notFound, "no booking \(bookingId.prefix(64))") }
            let orgOfWalker = await people.runner.read { $0.people[booking.walkerId]?.orgId }
            // Whose it is: its customer's, its walker's, and for its business's admins the business's.
            // Anyone else, whatever their role, is told it does not exist.
            let isCustomer = claims.owns(booking.customerId), isWalker = claims.owns(booking.walkerId)
            let isAdmin = claims.holds(.admin) && claims.belongs(to: orgOfWalker)
            guard isCustomer || isWalker || isAdmin else { throw OFFLEASHError(.notFound, "no booking \(bookingId.prefix(64))") }
            // What each of them may do with it.
            let role = OFFLEASHRole(rawValue: claims.role)
            let by: OFFLEASHRole
            if role == .customer, isCustomer, ["cancelled", "rescheduled"].contains(change) {
                by = .customer
            } else if role == .walker, isWalker, ["confirmed", "cancelled", "completed"].contains(change) {
                by = .walker
            } else if isAdmin {
                by = .admin
            } else {
                throw OFFLEASHError(.forbidden, "a \(claims.role) may not make a booking \(change)")
            }
            let allowed: Set<String> = switch change {
            case "confirmed": ["pending"]
            case "completed": ["confirmed", "in_progress"]
            default: ["pending", "confirmed"]
            }
            guard allowed.contains(booking.status) else { throw OFFLEASHError(.conflict, "the booking is \(booking.status)") }
            var event = WalkChanged(bookingId: bookingId, walkerId: booking.walkerId, change: change, start: nil, end: nil, by: by.rawValue)
            if change == "rescheduled" {
                guard let newStart else { throw OFFLEASHError(.invalidField("scheduled_start"), "scheduled_start must be an ISO-8601 date-time") }
                guard newStart > Timestamp.millis(now) else { throw OFFLEASHError(.invalidField("scheduled_start"), "scheduled_start must be in the future") }
                try Self.checkWindow(newStart, now: now)
                let end = newStart + (booking.end - booking.start)
                guard await runner.read({ $0.isFree(booking.walkerId, from: newStart, to: end, ignoring: bookingId) }) else {
                    throw OFFLEASHError(.conflict, "The walker is not free at that time")
                }
                event.start = Timestamp.string(millis: newStart, fraction: false)
                event.end = Timestamp.string(millis: end, fraction: false)
            }
            let expected = await runner.read { $0.scheduleSequence[booking.walkerId] }
            do {
                try await append(event, actor: claims.personId, options: AppendOptions(expected: expected.map { .at($0) } ?? .any))
                guard let changed = await runner.read({ $0.bookings[bookingId] }) else { break }
                return try await view(changed)
            } catch let error as AppendError where error.code == .conflict {
                try await catchUp()
            }
        }
        throw OFFLEASHError(.conflict, "The schedule is busy; try again")
    }

    // MARK: Plumbing

    func existingBooking(_ bookingId: String, customer: String) async throws -> BookingView? {
        guard let booking = await runner.read({ $0.bookings[bookingId] }), booking.customerId == customer else { return nil }
        return try await view(booking)
    }

    /// The booking as answers show it; `listed` adds the service name and the location's address
    /// (the lists show them; opening the address reads the customer's key), both people's names and
    /// `onlyPet` (the customer's one pet, sealed), which the list reads for all its bookings at once.
    func view(_ booking: OFFLEASHProjection.Booking, listed: Bool = false, onlyPet: String? = nil) async throws -> BookingView {
        let (service, location) = await runner.read { ($0.services[booking.serviceId], $0.locations[booking.locationId]) }
        let notes = try await booking.sealedNotes.asyncMap { try await people.vault.open(String.self, $0, for: booking.customerId) } ?? nil
        var view = BookingView(booking: booking, notes: notes, serviceName: service?.name, locationAddress: nil)
        guard listed else { return view }
        let address = try await location.asyncMap { try await people.vault.open(LocationDetails.self, $0.sealed, for: booking.customerId) } ?? nil
        (view.locationAddress, view.latitude, view.longitude) = (address?.fullAddress, address?.latitude, address?.longitude)
        let customer = try await people.card(booking.customerId)
        view.customerName = customer.flatMap { Self.displayName($0.firstName, $0.lastName) }
        view.customerPhone = customer?.phone.flatMap(Self.dialable)
        view.walkerName = try await people.card(booking.walkerId).flatMap { Self.displayName($0.firstName, $0.lastName) }
        if let onlyPet, let pet = try await people.vault.open(PetDetails.self, onlyPet, for: booking.customerId) {
            (view.petName, view.petBreed) = (pet.name, pet.breed)
        }
        return view
    }

    static func displayName(_ first: String, _ last: String) -> String? {
        let name = "\(first) \(last)".trimmingWhitespace
        return name.isEmpty ? nil : name
    }

    /// Digits and a leading `+` only, as a `tel:` link wants; nil when too few digits remain.
    static func dialable(_ phone: String) -> String? {
        let digits = phone.filter { $0.isASCII && $0.isNumber }
        guard digits.count >= 7 else { return nil }
        return (phone.trimmingCharacters(in: .whitespaces).hasPrefix("+") ? "+" : "") + digits
    }

    /// Waits until the fold has read everything in the log now.
    func catchUp() async throws {
        _ = try await runner.catchUpWithLog(timeout: Self.settle)
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

extension Walks {
    /// How far ahead a walk may be booked: a year, as far as a walker's roster and a customer's
    /// plans reach (the app's date picker has no limit of its own; year 2100 is no booking).
    package static let bookingWindowDays = 365

    static func checkWindow(_ start: Int64, now: Date) throws {
        guard start <= Timestamp.millis(now) + Int64(bookingWindowDays) * 86_400_000 else {
            throw OFFLEASHError(.invalidField("start_time"), "start_time must be within \(bookingWindowDays) days from now")
        }
    }
}
