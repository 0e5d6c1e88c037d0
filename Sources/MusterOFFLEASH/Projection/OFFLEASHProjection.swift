package import MusterEvents
import MusterLog

/// OFFLEASH's read model: each organisation's services, walkers' rosters, customers' locations
/// (sealed) and every walker's schedule. Small per organisation; kept whole in memory.
package enum OFFLEASHProjection: Projection {
    package struct Location: Codable, Sendable, Equatable {
        package var locationId: String
        package var customerId: String
        package var addressKey: String
        package var sealed: String
        package var isDefault: Bool
        package var createdSequence: UInt64
    }

    package struct Booking: Codable, Sendable, Equatable {
        package var bookingId: String
        package var walkerId: String
        package var customerId: String
        package var serviceId: String
        package var locationId: String
        package var start: Int64
        package var end: Int64
        package var priceCents: Int
        package var sealedNotes: String?
        package var status: String
        package var seriesId: String?
        /// The status before the last change (a walk cancelled while still `pending` was declined).
        package var previousStatus: String? = nil
    }

    /// A customer's pet (its fields sealed with the customer's key).
    package struct Pet: Codable, Sendable, Equatable {
        package var petId: String
        package var customerId: String
        package var orgId: String
        package var sealed: String
        package var createdAt: String
        package var updatedAt: String
        /// Stream sequences of the pet's first and last events (the list's order; the next edit's expected version).
        package var createdSequence: UInt64
        package var sequence: UInt64
    }

    /// A walker's profile (sealed with the walker's key) or service area, with when it began and last changed.
    package struct Stamped<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        package var value: Value
        package var createdAt: String
        package var updatedAt: String
        package var sequence: UInt64
    }

    /// A customer's saved payment method (metadata only).
    package struct Card: Codable, Sendable, Equatable {
        package var saved: CardSaved
        package var createdAt: String
        package var createdSequence: UInt64
    }

    /// One booking's payment: priced, then settled by the provider, perhaps refunded.
    package struct Transaction: Codable, Sendable, Equatable {
        package var priced: PaymentPriced
        /// `pending`, `succeeded`, `failed`, `refunded`.
        package var status: String
        package var failureReason: String?
        package var providerReference: String?
        package var createdAt: String
        package var completedAt: String?
        package var sequence: UInt64
    }

    /// A customer's recurring walk and the occurrences booked for it.
    package struct Series: Codable, Sendable, Equatable {
        package var created: SeriesCreated
        package var cancelled: Bool
        package var bookingIds: [String]
        package var createdAt: String
        /// Stream sequence of the series' last event.
        package var sequence: UInt64
    }

    /// A walker's time off.
    package struct Block: Codable, Sendable, Equatable {
        package var blockId: String
        package var reason: String
        package var start: Int64
        package var end: Int64
    }

    package struct Roster: Codable, Sendable, Equatable {
        package var orgId: String
        package var timeZone: String
        package var shifts: [WalkerRostered.Shift]
    }

    package struct State: Codable, Sendable, Equatable {
        package var services: [String: ServiceDefined] = [:]
        package var rosters: [String: Roster] = [:]
        package var locations: [String: Location] = [:]
        package var bookings: [String: Booking] = [:]
        /// walkerId → the stream sequence of the schedule's last event (what the next append expects).
        package var scheduleSequence: [String: UInt64] = [:]
        /// walkerId → their walks that hold time, by start.
        package var schedules: [String: WalkerSchedule] = [:]
        /// walkerId → their time off, in the order taken.
        package var blocks: [String: [Block]] = [:]
        package var series: [String: Series] = [:]
        package var pets: [String: Pet] = [:]
        /// walkerId → their profile.
        package var walkerProfiles: [String: Stamped<WalkerProfiled>] = [:]
        /// walkerId → the stream sequence of the walker aggregate's last event, a roster's or a
        /// profile's (both are `offleash.walker.<id>`): what a profile's append expects.
        package var walkerSequence: [String: UInt64] = [:]
        /// areaId → a walker's service area.
        package var areas: [String: Stamped<ServiceAreaSaved>] = [:]
        package var cards: [String: Card] = [:]
        package var transactions: [String: Transaction] = [:]
        /// bookingId → its transactions, oldest first.
        package var transactionsByBooking: [String: [String]] = [:]
        package var subscriptions: [String: Stamped<SubscriptionDefined>] = [:]
    }

    package static let name = "offleash"
    /// 2: schedules indexed per walker. 3: walkers' blocks, profiles and areas, recurring series, pets, payments, subscriptions.
    /// 4: the walker aggregate's last sequence (a profile saved after a roster expected the profile's own, and never won).
    package static let version = 5
    package static let filterSubjects = ["events.offleash.>"]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let service as ServiceDefined:
            if let existing = state.services[service.serviceId], existing.orgId != service.orgId {
                throw ProjectionRejection("service \(service.serviceId) belongs to another organisation")
            }
            state.services[service.serviceId] = service
        case let roster as WalkerRostered:
            state.rosters[roster.walkerId] = Roster(orgId: roster.orgId, timeZone: roster.timeZone, shifts: roster.shifts)
            state.walkerSequence[roster.walkerId] = event.sequence
        case let saved as LocationSaved:
            let created = state.locations[saved.locationId]?.createdSequence ?? event.sequence
            if saved.isDefault { clearDefault(of: saved.customerId, in: &state) }
            state.locations[saved.locationId] = Location(locationId: saved.locationId, customerId: saved.customerId, addressKey: saved.addressKey,
                                                         sealed: saved.sealed, isDefault: saved.isDefault, createdSequence: created)
        case let removed as LocationRemoved:
            guard state.locations[removed.locationId]?.customerId == removed.customerId else { return }
            state.locations[removed.locationId] = nil
        case let defaulted as LocationDefaulted:
            guard state.locations[defaulted.locationId]?.customerId == defaulted.customerId else { return }
            clearDefault(of: defaulted.customerId, in: &state)
            state.locations[defaulted.locationId]?.isDefault = true
        case let booked as WalkBooked:
            guard let start = Timestamp.millis(booked.start), let end = Timestamp.millis(booked.end) else {
                throw ProjectionRejection("booking times are not timestamps")
            }
            state.bookings[booked.bookingId] = Booking(bookingId: booked.bookingId, walkerId: booked.walkerId, customerId: booked.customerId,
                                                       serviceId: booked.serviceId, locationId: booked.locationId, start: start, end: end,
                                                       priceCents: booked.priceCents, sealedNotes: booked.sealedNotes, status: "pending",
                                                       seriesId: booked.seriesId)
            if let seriesId = booked.seriesId, state.series[seriesId]?.bookingIds.contains(booked.bookingId) == false {
                state.series[seriesId]?.bookingIds.append(booked.bookingId)
            }
            state.scheduleSequence[booked.walkerId] = event.sequence
            state.schedules[booked.walkerId, default: WalkerSchedule()].remove(booked.bookingId)
            state.schedules[booked.walkerId, default: WalkerSchedule()].insert(.init(start: start, end: end, bookingId: booked.bookingId))
        case let created as SeriesCreated:
            guard state.series[created.seriesId] == nil else { throw ProjectionRejection("series \(created.seriesId) created twice") }
            state.series[created.seriesId] = Series(created: created, cancelled: false, bookingIds: [], createdAt: event.time, sequence: event.sequence)
        case let cancelled as SeriesCancelled:
            guard state.series[cancelled.seriesId]?.created.customerId == cancelled.customerId else { return }
            state.series[cancelled.seriesId]?.cancelled = true
            state.series[cancelled.seriesId]?.sequence = event.sequence
        case let saved as PetSaved:
            if let existing = state.pets[saved.petId], existing.customerId != saved.customerId {
                throw ProjectionRejection("pet \(saved.petId) belongs to another customer")
            }
            let created = state.pets[saved.petId].map { ($0.createdAt, $0.createdSequence) } ?? (event.time, event.sequence)
            state.pets[saved.petId] = Pet(petId: saved.petId, customerId: saved.customerId, orgId: saved.orgId, sealed: saved.sealed,
                                          createdAt: created.0, updatedAt: event.time, createdSequence: created.1, sequence: event.sequence)
        case let removed as PetRemoved:
            guard state.pets[removed.petId]?.customerId == removed.customerId else { return }
            state.pets[removed.petId] = nil
        case let profiled as WalkerProfiled:
            let createdAt = state.walkerProfiles[profiled.walkerId]?.createdAt ?? event.time
            state.walkerProfiles[profiled.walkerId] = Stamped(value: profiled, createdAt: createdAt, updatedAt: event.time, sequence: event.sequence)
            state.walkerSequence[profiled.walkerId] = event.sequence
        case let area as ServiceAreaSaved:
            if let existing = state.areas[area.areaId], existing.value.walkerId != area.walkerId {
                throw ProjectionRejection("area \(area.areaId) belongs to another walker")
            }
            let createdAt = state.areas[area.areaId]?.createdAt ?? event.time
            state.areas[area.areaId] = Stamped(value: area, createdAt: createdAt, updatedAt: event.time, sequence: event.sequence)
        case let removed as ServiceAreaRemoved:
            guard state.areas[removed.areaId]?.value.walkerId == removed.walkerId else { return }
            state.areas[removed.areaId] = nil
        case let card as CardSaved:
            if card.isDefault {
                for (id, other) in state.cards where other.saved.customerId == card.customerId { state.cards[id]?.saved.isDefault = false }
            }
            let created = state.cards[card.methodId].map { ($0.createdAt, $0.createdSequence) } ?? (event.time, event.sequence)
            state.cards[card.methodId] = Card(saved: card, createdAt: created.0, createdSequence: created.1)
        case let changed as CardChanged:
            guard state.cards[changed.methodId]?.saved.customerId == changed.customerId else { return }
            if changed.change == "removed" {
                let wasDefault = state.cards[changed.methodId]?.saved.isDefault == true
                state.cards[changed.methodId] = nil
                // The default removed: the oldest left takes its place.
                if wasDefault, let next = state.cards.values.filter({ $0.saved.customerId == changed.customerId }).min(by: { $0.createdSequence < $1.createdSequence }) {
                    state.cards[next.saved.methodId]?.saved.isDefault = true
                }
            } else {
                for (id, other) in state.cards where other.saved.customerId == changed.customerId { state.cards[id]?.saved.isDefault = id == changed.methodId }
            }
        case let priced as PaymentPriced:
            if let existing = state.transactions[priced.transactionId] {
                guard existing.status == "pending", existing.priced.bookingId == priced.bookingId else {
                    throw ProjectionRejection("transaction \(priced.transactionId) is \(existing.status)")
                }
                state.transactions[priced.transactionId]?.priced = priced
                state.transactions[priced.transactionId]?.sequence = event.sequence
            } else {
                state.transactions[priced.transactionId] = Transaction(priced: priced, status: "pending", createdAt: event.time, sequence: event.sequence)
                state.transactionsByBooking[priced.bookingId, default: []].append(priced.transactionId)
            }
        case let settled as PaymentSettled:
            guard var transaction = state.transactions[settled.transactionId] else { throw ProjectionRejection("unknown transaction \(settled.transactionId)") }
            transaction.status = settled.outcome
            transaction.failureReason = settled.reason
            transaction.providerReference = settled.providerReference ?? transaction.providerReference
            if settled.outcome != "failed" { transaction.completedAt = transaction.completedAt ?? event.time }
            transaction.sequence = event.sequence
            state.transactions[settled.transactionId] = transaction
        case let subscription as SubscriptionDefined:
            if let existing = state.subscriptions[subscription.subscriptionId], existing.value.orgId != subscription.orgId
                || existing.value.customerId != subscription.customerId {
                throw ProjectionRejection("subscription \(subscription.subscriptionId) belongs to someone else")
            }
            let createdAt = state.subscriptions[subscription.subscriptionId]?.createdAt ?? event.time
            state.subscriptions[subscription.subscriptionId] = Stamped(value: subscription, createdAt: createdAt, updatedAt: event.time, sequence: event.sequence)
        case let blocked as WalkerBlocked:
            guard let start = Timestamp.millis(blocked.start), let end = Timestamp.millis(blocked.end) else {
                throw ProjectionRejection("block times are not timestamps")
            }
            state.scheduleSequence[blocked.walkerId] = event.sequence
            state.blocks[blocked.walkerId, default: []].append(Block(blockId: blocked.blockId, reason: blocked.reason, start: start, end: end))
        case let changed as WalkChanged:
            state.scheduleSequence[changed.walkerId] = event.sequence
            guard var booking = state.bookings[changed.bookingId], booking.walkerId == changed.walkerId else { return }
            switch changed.change {
            case "rescheduled":
                if let start = changed.start.flatMap({ Timestamp.millis($0) }), let end = changed.end.flatMap({ Timestamp.millis($0) }) {
                    booking.start = start
                    booking.end = end
                }
            default:
                booking.previousStatus = booking.status
                booking.status = changed.change
            }
            state.bookings[changed.bookingId] = booking
            state.schedules[changed.walkerId, default: WalkerSchedule()].remove(booking.bookingId)
            if booking.status != "cancelled" {
                state.schedules[changed.walkerId, default: WalkerSchedule()]
                    .insert(.init(start: booking.start, end: booking.end, bookingId: booking.bookingId))
            }
        default:
            return
        }
    }

    static func clearDefault(of customerId: String, in state: inout State) {
        for (id, location) in state.locations where location.customerId == customerId && location.isDefault {
            state.locations[id]?.isDefault = false
        }
    }
}

extension OFFLEASHProjection.State {
    /// True when `walkerId` works all of [start, end) and has no booking overlapping it
    /// (`ignoring` one, for a reschedule).
    func isFree(_ walkerId: String, from start: Int64, to end: Int64, ignoring: String? = nil) -> Bool {
        guard let roster = rosters[walkerId], Schedule.covers(roster, from: start, to: end) else { return false }
        if blocks[walkerId]?.contains(where: { $0.start < end && start < $0.end }) == true { return false }
        return schedules[walkerId]?.isFree(from: start, to: end, ignoring: ignoring) ?? true
    }

    /// How many walks the walker has within a day either side of `instant`.
    func load(_ walkerId: String, around instant: Int64) -> Int {
        schedules[walkerId]?.count(from: instant - 86_400_000, to: instant + 86_400_000) ?? 0
    }
}
