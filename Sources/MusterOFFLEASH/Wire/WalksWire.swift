import Foundation
import MusterEvents
import MusterPlatform

/// OFFLEASH's catalog, location and booking bodies, as the contract spells them.
struct ServiceBody: Encodable {
    var id: String
    var name: String
    var description: String?
    var durationMinutes: Int
    var priceCents: Int
    var priceDisplay: String
    var isActive: Bool

    init(_ service: ServiceDefined) {
        id = service.serviceId
        name = service.name
        description = service.description
        durationMinutes = service.durationMinutes
        priceCents = service.priceCents
        priceDisplay = Money.display(service.priceCents)
        isActive = service.isActive
    }

    enum CodingKeys: String, CodingKey {
        case id, name, description, durationMinutes = "duration_minutes", priceCents = "price_cents", priceDisplay = "price_display", isActive = "is_active"
    }
}

struct ServiceRequest: Decodable {
    var name: String
    var description: String?
    var durationMinutes: Int
    var priceCents: Int
    var isActive: Bool?

    enum CodingKeys: String, CodingKey {
        case name, description, durationMinutes = "duration_minutes", priceCents = "price_cents", isActive = "is_active"
    }
}

/// A location as the add screen sends it, or as the app's unused edit code would (`zip` for
/// `zip_code`, no coordinates: an edit keeps the ones it had).
struct LocationRequest: Decodable {
    var name: String
    var address: String
    var city: String
    var state: String
    var zipCode: String
    var latitude: Double?
    var longitude: Double?
    var notes: String?
    var isDefault: Bool?

    /// The details, with `keeping`'s coordinates when the request has none; nil when it has none to keep.
    func details(keeping existing: LocationDetails? = nil) -> LocationDetails? {
        guard let latitude = latitude ?? existing?.latitude, let longitude = longitude ?? existing?.longitude else { return nil }
        return LocationDetails(name: name, address: address, city: city, state: state, zipCode: zipCode, latitude: latitude, longitude: longitude, notes: notes)
    }

    enum CodingKeys: String, CodingKey {
        case name, address, city, state, zipCode = "zip_code", zip, latitude, longitude, notes, isDefault = "is_default"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        address = try c.decode(String.self, forKey: .address)
        city = try c.decode(String.self, forKey: .city)
        state = try c.decode(String.self, forKey: .state)
        guard let zip = try c.decodeIfPresent(String.self, forKey: .zipCode) ?? c.decodeIfPresent(String.self, forKey: .zip) else {
            throw DecodingError.keyNotFound(CodingKeys.zipCode, .init(codingPath: c.codingPath, debugDescription: "zip_code is required"))
        }
        zipCode = zip
        latitude = try c.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try c.decodeIfPresent(Double.self, forKey: .longitude)
        notes = try c.decodeIfPresent(String.self, forKey: .notes)
        isDefault = try c.decodeIfPresent(Bool.self, forKey: .isDefault)
    }
}

struct LocationBody: Encodable {
    var id: String
    var name: String
    var address: String
    var city: String
    var state: String
    var zipCode: String
    var latitude: Double
    var longitude: Double
    var notes: String?
    var isDefault: Bool
    var fullAddress: String

    init(_ view: LocationView) {
        let d = view.details
        id = view.locationId
        name = d.name
        address = d.address
        city = d.city
        state = d.state
        zipCode = d.zipCode
        latitude = d.latitude
        longitude = d.longitude
        notes = d.notes
        isDefault = view.isDefault
        fullAddress = d.fullAddress
    }

    enum CodingKeys: String, CodingKey {
        case id, name, address, city, state, zipCode = "zip_code", latitude, longitude, notes, isDefault = "is_default", fullAddress = "full_address"
    }
}

struct BookingRequestBody: Decodable {
    var walkerId: String?
    var serviceId: String
    var locationId: String
    var startTime: String
    var notes: String?

    enum CodingKeys: String, CodingKey {
        case walkerId = "walker_id", serviceId = "service_id", locationId = "location_id", startTime = "start_time", notes
    }
}

/// `POST /blocks`: `{reason, start_time, end_time}`, UTC, whole seconds.
struct BlockRequest: Decodable {
    var reason: String?
    var startTime: String
    var endTime: String
    enum CodingKeys: String, CodingKey { case reason, startTime = "start_time", endTime = "end_time" }
}

/// `WalkerBlock`: `{id, walker_id, reason, start_time, end_time, is_recurring}`.
struct BlockBody: Encodable {
    var id: String
    var walkerId: String
    var reason: String
    var startTime: String
    var endTime: String
    var isRecurring = false

    init(_ block: OFFLEASHProjection.Block, walkerId: String) {
        id = block.blockId
        self.walkerId = walkerId
        reason = block.reason
        startTime = Timestamp.string(millis: block.start, fraction: false)
        endTime = Timestamp.string(millis: block.end, fraction: false)
    }

    enum CodingKeys: String, CodingKey {
        case id, walkerId = "walker_id", reason, startTime = "start_time", endTime = "end_time", isRecurring = "is_recurring"
    }
}

/// `{scheduled_start}` as the app sends it; `start_time` as earlier clients did.
struct RescheduleBody: Decodable {
    var scheduledStart: String?
    var startTime: String?
    enum CodingKeys: String, CodingKey { case scheduledStart = "scheduled_start", startTime = "start_time" }
}

/// `{id, customer_id, walker_id, service_id, location_id, status, scheduled_start, scheduled_end,
/// price_cents, price_display, notes}`; the lists add `service_name` and `location_address`.
struct BookingBody: Encodable {
    var id: String
    var customerId: String
    var walkerId: String
    var serviceId: String
    var locationId: String
    var status: String
    var scheduledStart: String
    var scheduledEnd: String
    var priceCents: Int
    var priceDisplay: String
    var notes: String?
    var serviceName: String?
    var locationAddress: String?
    var latitude: Double?
    var longitude: Double?
    var customerName: String?
    var customerPhone: String?
    var walkerName: String?
    var petName: String?
    var petBreed: String?

    init(_ view: BookingView, listed: Bool) {
        let b = view.booking
        id = b.bookingId
        customerId = b.customerId
        walkerId = b.walkerId
        serviceId = b.serviceId
        locationId = b.locationId
        status = b.status
        scheduledStart = Timestamp.string(millis: b.start, fraction: false)
        scheduledEnd = Timestamp.string(millis: b.end, fraction: false)
        priceCents = b.priceCents
        priceDisplay = Money.display(b.priceCents)
        notes = view.notes
        serviceName = listed ? view.serviceName : nil
        locationAddress = listed ? view.locationAddress : nil
        (latitude, longitude) = (view.latitude, view.longitude)
        (customerName, customerPhone, walkerName) = (view.customerName, view.customerPhone, view.walkerName)
        (petName, petBreed) = (view.petName, view.petBreed)
    }

    enum CodingKeys: String, CodingKey {
        case id, customerId = "customer_id", walkerId = "walker_id", serviceId = "service_id", locationId = "location_id", status,
             scheduledStart = "scheduled_start", scheduledEnd = "scheduled_end", priceCents = "price_cents", priceDisplay = "price_display",
             notes, serviceName = "service_name", locationAddress = "location_address", latitude, longitude,
             customerName = "customer_name", customerPhone = "customer_phone", walkerName = "walker_name", petName = "pet_name",
             petBreed = "pet_breed"
    }
}

/// `POST /bookings/recurring`, as the app sends it: `start_time` is a 12-hour local clock
/// (`9:00 AM`), `start_date` the UTC date, and exactly one of `end_date` and `occurrences`.
struct RecurringRequest: Decodable {
    var serviceId: String
    var locationId: String
    var frequency: String
    var dayOfWeek: Int
    var startTime: String
    var startDate: String
    var endDate: String?
    var occurrences: Int?
    var notes: String?

    var request: Walks.SeriesRequest {
        Walks.SeriesRequest(serviceId: serviceId, locationId: locationId, frequency: frequency, dayOfWeek: dayOfWeek, timeSlot: startTime,
                            startDate: startDate, endDate: endDate, occurrences: occurrences, notes: notes)
    }

    enum CodingKeys: String, CodingKey {
        case serviceId = "service_id", locationId = "location_id", frequency, dayOfWeek = "day_of_week", startTime = "start_time",
             startDate = "start_date", endDate = "end_date", occurrences, notes
    }
}

/// `RecurringBooking`. Dates the app sent as `YYYY-MM-DD` come back as noon UTC of that day (the
/// app shows a calendar date in the device's zone; midnight would show the day before in the Americas).
struct RecurringBody: Encodable {
    var id: String
    var customerId: String
    var walkerId: String
    var serviceId: String
    var serviceName: String?
    var locationId: String
    var locationAddress: String?
    var frequency: String
    var dayOfWeek: Int
    var timeSlot: String
    var status: String
    var startDate: String
    var endDate: String?
    var occurrences: Int?
    var completedOccurrences: Int
    var nextBookingDate: String?
    var priceCents: Int
    var priceDisplay: String
    var notes: String?
    var createdAt: String

    init(_ view: SeriesView) {
        let c = view.series.created
        id = c.seriesId
        customerId = c.customerId
        walkerId = c.walkerId
        serviceId = c.serviceId
        serviceName = view.serviceName
        locationId = c.locationId
        locationAddress = view.locationAddress
        frequency = c.frequency
        dayOfWeek = c.dayOfWeek
        timeSlot = c.timeSlot
        status = view.status
        startDate = Self.noon(c.startDate)
        endDate = c.endDate.map(Self.noon)
        occurrences = c.occurrences
        completedOccurrences = view.completedOccurrences
        nextBookingDate = view.nextStart.map { Timestamp.string(millis: $0, fraction: false) }
        priceCents = c.priceCents
        priceDisplay = Money.display(c.priceCents)
        notes = view.notes
        createdAt = ContractDates.seconds(view.series.createdAt)
    }

    static func noon(_ day: String) -> String { "\(day)T12:00:00Z" }

    enum CodingKeys: String, CodingKey {
        case id, customerId = "customer_id", walkerId = "walker_id", serviceId = "service_id", serviceName = "service_name",
             locationId = "location_id", locationAddress = "location_address", frequency, dayOfWeek = "day_of_week", timeSlot = "time_slot",
             status, startDate = "start_date", endDate = "end_date", occurrences, completedOccurrences = "completed_occurrences",
             nextBookingDate = "next_booking_date", priceCents = "price_cents", priceDisplay = "price_display", notes, createdAt = "created_at"
    }
}

struct RecurringList: Encodable {
    var recurringBookings: [RecurringBody]
    enum CodingKeys: String, CodingKey { case recurringBookings = "recurring_bookings" }
}

struct SeriesCancelledBody: Encodable {
    var success = true
    var message = "Series cancelled"
    var cancelledBookingsCount: Int
    enum CodingKeys: String, CodingKey { case success, message, cancelledBookingsCount = "cancelled_bookings_count" }
}

/// `GET /availability/slots`: `{date, service_id, slots: [{start_time, end_time, available_walkers}]}`.
struct SlotsBody: Encodable {
    struct SlotBody: Encodable {
        var startTime: String
        var endTime: String
        var availableWalkers: Int
        enum CodingKeys: String, CodingKey { case startTime = "start_time", endTime = "end_time", availableWalkers = "available_walkers" }
    }

    var date: String
    var serviceId: String
    var slots: [SlotBody]
    enum CodingKeys: String, CodingKey { case date, serviceId = "service_id", slots }
}

struct RosterRequest: Decodable {
    struct Shift: Decodable {
        var weekday: Int
        var start: String
        var end: String
    }

    var timeZone: String
    var shifts: [Shift]
    enum CodingKeys: String, CodingKey { case timeZone = "time_zone", shifts }
}

struct WalkerBody: Encodable {
    var id: String
    var firstName: String
    var lastName: String
    enum CodingKeys: String, CodingKey { case id, firstName = "first_name", lastName = "last_name" }
}

enum Money {
    /// `$12.34`.
    static func display(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let rest = magnitude % 100
        return "\(sign)$\(magnitude / 100).\(rest < 10 ? "0" : "")\(rest)"
    }
}
