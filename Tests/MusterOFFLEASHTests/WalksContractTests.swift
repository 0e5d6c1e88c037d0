import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Testing

/// Strict mirrors of the contract's catalog, location and booking answers.
struct ContractService: Decodable, Equatable {
    var id: String
    var name: String
    var description: String?
    var durationMinutes: Int
    var priceCents: Int
    var priceDisplay: String
    var isActive: Bool
    enum CodingKeys: String, CodingKey {
        case id, name, description, durationMinutes = "duration_minutes", priceCents = "price_cents", priceDisplay = "price_display", isActive = "is_active"
    }
}

struct ContractLocation: Decodable {
    var id: String
    var name: String
    var address: String
    var latitude: Double
    var longitude: Double
    var isDefault: Bool
    var fullAddress: String
    enum CodingKeys: String, CodingKey { case id, name, address, latitude, longitude, isDefault = "is_default", fullAddress = "full_address" }
}

struct ContractBooking: Decodable {
    var id: String
    var customerId: String
    var walkerId: String
    var serviceId: String
    var locationId: String
    var status: String
    var scheduledStart: Date
    var scheduledEnd: Date
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
    enum CodingKeys: String, CodingKey {
        case id, customerId = "customer_id", walkerId = "walker_id", serviceId = "service_id", locationId = "location_id", status,
             scheduledStart = "scheduled_start", scheduledEnd = "scheduled_end", priceCents = "price_cents", priceDisplay = "price_display",
             notes, serviceName = "service_name", locationAddress = "location_address", latitude, longitude, customerName = "customer_name",
             customerPhone = "customer_phone", walkerName = "walker_name", petName = "pet_name", petBreed = "pet_breed"
    }
}

struct ContractSlots: Decodable {
    struct Slot: Decodable {
        var startTime: Date
        var endTime: Date
        var availableWalkers: Int
        enum CodingKeys: String, CodingKey { case startTime = "start_time", endTime = "end_time", availableWalkers = "available_walkers" }
    }
    var slots: [Slot]
}

@Suite("OFFLEASH services, locations and bookings over HTTP")
struct WalksContractTests {
    struct Org: Sendable {
        var admin: String
        var customer: String
        var walkers: [String]
        var service: ContractService
        var location: ContractLocation
        /// The next Monday, in UTC (the walkers' zone here), as `YYYY-MM-DD`.
        var monday: String
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try appDecoder.decode(T.self, from: Data(buffer: response.body))
    }

    static func token(_ app: TestApp, _ email: String) async throws -> String {
        let login = try await app.request("/auth/login", method: .post, json: #"{"email": "\#(email)", "password": "Walkies2026"}"#)
        return try decode(ContractSignedIn.self, login).token
    }

    /// The demo org: an admin, `walkers` walkers working 09:00-17:00 UTC on Mondays, a 30-minute
    /// service, a customer with one location.
    static func withOrg(walkers count: Int = 2, roles: [String] = ["ingest"], live: Bool = false, configure: (inout MusterConfiguration) -> Void = { _ in },
                        _ body: @escaping @Sendable (TestApp, Org) async throws -> Void) async throws {
        try await AccountContractTests.withDemo(roles: roles, live: live, configure: configure) { app, people in
            for (role, email) in [("admin", "boss@example.com")] + (0..<count).map({ ("walker", "walker\($0)@example.com") }) {
                _ = try await people.addPerson(People.Registration(orgSlug: "demo", email: email, firstName: String(email.prefix { $0 != "@" }), lastName: "X",
                                                                   phone: nil, password: "Walkies2026", role: role))
            }
            let admin = try await token(app, "boss@example.com")
            let listed = try decode([[String: String]].self, try await app.request("/walkers", headers: AccountContractTests.bearer(admin)))
            // In the order they were added: walker0, walker1, …
            let walkers = listed.sorted { ($0["first_name"] ?? "") < ($1["first_name"] ?? "") }.compactMap { $0["id"] }
            #expect(walkers.count == count)
            for walker in walkers {
                let roster = try await app.request("/walkers/\(walker)/roster", method: .put, headers: AccountContractTests.bearer(admin), json: """
                {"time_zone": "UTC", "shifts": [{"weekday": 1, "start": "09:00", "end": "17:00"}]}
                """)
                #expect(roster.status == .noContent, "\(roster.text)")
            }
            let created = try await app.request("/services", method: .post, headers: AccountContractTests.bearer(admin), json: """
            {"name": "30 minute walk", "description": "Around the block", "duration_minutes": 30, "price_cents": 2500}
            """)
            #expect(created.status == .created, "\(created.text)")
            let service = try decode(ContractService.self, created)
            let customer = try decode(ContractSignedIn.self, try await AccountContractTests.register(app, email: "cust@example.com")).token
            let saved = try await app.request("/locations", method: .post, headers: AccountContractTests.bearer(customer), json: """
            {"name": "Home", "address": "1 Main St", "city": "Rapid City", "state": "SD", "zip_code": "57701", "latitude": 44.08, "longitude": -103.23}
            """)
            #expect(saved.status == .created, "\(saved.text)")
            var calendar = Calendar(identifier: .iso8601)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let monday = calendar.nextDate(after: Date().addingTimeInterval(86_400), matching: DateComponents(weekday: 2), matchingPolicy: .nextTime)!
            let day = ISO8601DateFormatter().string(from: monday).prefix(10)
            try await body(app, Org(admin: admin, customer: customer, walkers: walkers, service: service,
                                    location: try decode(ContractLocation.self, saved), monday: String(day)))
        }
    }

    @Test func activeServicesAreFilteredOnTheServerWithAnETag() async throws {
        try await Self.withOrg { app, org in
            let retired = try await app.request("/services", method: .post, headers: AccountContractTests.bearer(org.admin), json: """
            {"name": "Old hike", "duration_minutes": 120, "price_cents": 9000, "is_active": false}
            """)
            #expect(retired.status == .created)
            let all = try Self.decode([ContractService].self, try await app.request("/services", headers: AccountContractTests.bearer(org.customer)))
            #expect(all.count == 2)
            let active = try await app.request("/services?active=true", headers: AccountContractTests.bearer(org.customer))
            #expect(try Self.decode([ContractService].self, active) == [org.service])
            #expect(org.service.priceDisplay == "$25.00")
            let tag = try #require(active.headers[.eTag])
            var headers = AccountContractTests.bearer(org.customer)
            headers[.ifNoneMatch] = tag
            let again = try await app.request("/services?active=true", headers: headers)
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            // A customer may not change the catalog.
            let refused = try await app.request("/services", method: .post, headers: AccountContractTests.bearer(org.customer), json: """
            {"name": "Free walks", "duration_minutes": 30, "price_cents": 0}
            """)
            #expect(refused.status == .forbidden)
        }
    }

    @Test func locationsRefuseTheSameAddressTwiceAndOutOfRangeCoordinates() async throws {
        try await Self.withOrg { app, org in
            #expect(org.location.isDefault, "the first location is the default")
            #expect(org.location.fullAddress == "1 Main St, Rapid City, SD 57701")
            let bearer = AccountContractTests.bearer(org.customer)
            let again = try await app.request("/locations", method: .post, headers: bearer, json: """
            {"name": "Also home", "address": " 1 MAIN st ", "city": "rapid city", "state": "sd", "zip_code": "57701", "latitude": 44.08, "longitude": -103.23}
            """)
            #expect(again.status == .conflict, "\(again.text)")
            for (lat, lng, field) in [(91.0, 0.0, "latitude"), (0.0, -180.5, "longitude")] {
                let bad = try await app.request("/locations", method: .post, headers: bearer, json: """
                {"name": "Far", "address": "2 Main St", "city": "X", "state": "SD", "zip_code": "1", "latitude": \(lat), "longitude": \(lng)}
                """)
                #expect(bad.status == .unprocessableContent)
                #expect(bad.errorMessage.contains(field))
            }
            let park = try Self.decode(ContractLocation.self, try await app.request("/locations", method: .post, headers: bearer, json: """
            {"name": "Park", "address": "9 Elm St", "city": "Rapid City", "state": "SD", "zip_code": "57702", "latitude": 44.1, "longitude": -103.2}
            """))
            #expect(!park.isDefault)
            #expect(try await app.request("/locations/\(park.id)/default", method: .put, headers: bearer).status == .ok)
            let listed = try Self.decode([ContractLocation].self, try await app.request("/locations", headers: bearer))
            #expect(listed.map(\.isDefault) == [false, true])
            #expect(try await app.request("/locations/\(park.id)", method: .delete, headers: bearer).status == .noContent)
            // Another customer sees none of them.
            let other = try Self.decode(ContractSignedIn.self, try await AccountContractTests.register(app, email: "other@example.com")).token
            #expect(try Self.decode([ContractLocation].self, try await app.request("/locations", headers: AccountContractTests.bearer(other))).isEmpty)
            #expect(try await app.request("/locations/\(org.location.id)", method: .delete, headers: AccountContractTests.bearer(other)).status == .notFound)
        }
    }

    @Test func aBookingTakesARealSlotAndARetryIsTheSameBooking() async throws {
        try await Self.withOrg { app, org in
            let bearer = AccountContractTests.bearer(org.customer)
            let slots = try Self.decode(ContractSlots.self, try await app.request(
                "/availability/slots?service_id=\(org.service.id)&location_id=\(org.location.id)&date=\(org.monday)", headers: bearer))
            #expect(slots.slots.count == 16, "09:00 to 16:30, every half hour")
            #expect(slots.slots.allSatisfy { $0.availableWalkers == 2 })
            let start = try #require(slots.slots.first).startTime
            var headers = bearer
            headers[.idempotencyKey] = "tap-1"
            let json = #"{"walker_id": null, "service_id": "\#(org.service.id)", "location_id": "\#(org.location.id)", "start_time": "\#(ISO8601DateFormatter().string(from: start))", "notes": "Gate code 1234"}"#
            let first = try await app.request("/bookings", method: .post, headers: headers, json: json)
            #expect(first.status == .created, "\(first.text)")
            let booking = try Self.decode(ContractBooking.self, first)
            #expect(booking.status == "pending")
            #expect(booking.scheduledEnd.timeIntervalSince(booking.scheduledStart) == 1800)
            #expect(booking.priceDisplay == "$25.00")
            #expect(booking.notes == "Gate code 1234")
            let retry = try Self.decode(ContractBooking.self, try await app.request("/bookings", method: .post, headers: headers, json: json))
            #expect(retry.id == booking.id)

            let after = try Self.decode(ContractSlots.self, try await app.request(
                "/availability/slots?service_id=\(org.service.id)&location_id=\(org.location.id)&date=\(org.monday)", headers: bearer))
            #expect(after.slots.first?.availableWalkers == 1)

            let mine = try Self.decode([ContractBooking].self, try await app.request("/bookings/customer", headers: bearer))
            #expect(mine.map(\.id) == [booking.id])
            #expect(mine.first?.serviceName == "30 minute walk")
            #expect(mine.first?.locationAddress == "1 Main St, Rapid City, SD 57701")

            // The walker confirms and completes; the customer may not complete.
            let walkerEmail = "walker\(org.walkers.firstIndex(of: booking.walkerId) ?? 0)@example.com"
            let walker = AccountContractTests.bearer(try await Self.token(app, walkerEmail))
            #expect(try Self.decode([ContractBooking].self, try await app.request("/bookings/walker", headers: walker)).map(\.id) == [booking.id])
            #expect(mine.first?.walkerName == "walker\(org.walkers.firstIndex(of: booking.walkerId) ?? 0) X", "the customer's list names the walker")
            // The walker's list: the customer's name and phone (digits and +, for the Call button), the place's pin, their one pet.
            _ = try await app.request("/users/me", method: .put, headers: bearer, json: #"{"first_name": "Rita", "last_name": "Runner", "phone": "(605) 555-0100"}"#)
            _ = try await app.request("/pets", method: .post, headers: bearer, json: #"{"name": "Biscuit", "species": "dog", "breed": "Beagle"}"#)
            let listed = try #require(try Self.decode([ContractBooking].self, try await app.request("/bookings/walker", headers: walker)).first)
            #expect(listed.customerName == "Rita Runner" && listed.customerPhone == "6055550100" && listed.petName == "Biscuit" && listed.petBreed == "Beagle",
                    "\(listed)")
            #expect(listed.latitude == org.location.latitude && listed.longitude == org.location.longitude)
            #expect(try await app.request("/bookings/\(booking.id)/complete", method: .post, headers: bearer).status == .forbidden)
            #expect(try await app.request("/bookings/\(booking.id)/complete", method: .post, headers: walker).status == .conflict, "pending, not confirmed")
            #expect(try Self.decode(ContractBooking.self, try await app.request("/bookings/\(booking.id)/confirm", method: .post, headers: walker)).status == "confirmed")
            let moved = try await app.request("/bookings/\(booking.id)/reschedule", method: .post, headers: bearer, json: """
            {"start_time": "\(ISO8601DateFormatter().string(from: start.addingTimeInterval(3600)))"}
            """)
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(try Self.decode(ContractBooking.self, moved).scheduledStart == start.addingTimeInterval(3600))
            #expect(try Self.decode(ContractBooking.self, try await app.request("/bookings/\(booking.id)/cancel", method: .post, headers: bearer)).status == "cancelled")
        }
    }

    /// 50 customers' bookings (here one customer's at 50 places) race for one walker's slot: one
    /// gets it. And 50 identical requests without a key (the app sends none; a second tap after a
    /// timeout re-sends the body) are one booking, answered to each.
    @Test func fiftyConcurrentBookingsOfOneWalkersSlotMakeExactlyOne() async throws {
        try await Self.withOrg(walkers: 1) { app, org in
            let bearer = AccountContractTests.bearer(org.customer)
            var places = [org.location.id]
            for index in 1..<50 {
                places.append(try Self.decode(ContractLocation.self, try await app.request("/locations", method: .post, headers: bearer, json: """
                {"name": "Place \(index)", "address": "\(index) Oak St", "city": "Rapid City", "state": "SD", "zip_code": "57701", "latitude": 44.08, "longitude": -103.23}
                """)).id)
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for place in places {
                    let json = #"{"service_id": "\#(org.service.id)", "location_id": "\#(place)", "start_time": "\#(org.monday)T10:00:00Z"}"#
                    group.addTask { try await app.request("/bookings", method: .post, headers: bearer, json: json).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 49, "\(statuses)")

            let same = #"{"service_id": "\#(org.service.id)", "location_id": "\#(org.location.id)", "start_time": "\#(org.monday)T14:00:00Z"}"#
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await app.request("/bookings", method: .post, headers: bearer, json: same)
                        return response.status == .created ? try Self.decode(ContractBooking.self, response).id : nil
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(ids.allSatisfy { $0 != nil } && Set(ids).count == 1, "\(ids)")
            let mine = try Self.decode([ContractBooking].self, try await app.request("/bookings/customer", headers: bearer))
            #expect(mine.count == 2)
        }
    }

    @Test func hostileBookingsAndLocationsStoreNothing() async throws {
        try await Self.withOrg { app, org in
            let bearer = AccountContractTests.bearer(org.customer)
            let before = try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq
            let cases: [(String, String, HTTPResponse.Status)] = [
                ("/bookings", #"{"service_id": "x", "location_id": "y", "start_time": "soon"}"#, .unprocessableContent),
                ("/bookings", #"{"service_id": "\#(org.service.id)", "location_id": "\#(org.location.id)", "start_time": "2001-01-01T10:00:00Z"}"#, .unprocessableContent),
                ("/bookings", #"{"service_id": "nope", "location_id": "\#(org.location.id)", "start_time": "\#(org.monday)T10:00:00Z"}"#, .notFound),
                ("/bookings", #"{"service_id": "\#(org.service.id)", "location_id": "\#(org.location.id)", "start_time": "\#(org.monday)T03:00:00Z"}"#, .conflict),
                ("/bookings", #"{"service_id": null, "location_id": "\#(org.location.id)", "start_time": "\#(org.monday)T10:00:00Z"}"#, .badRequest),
                ("/locations", #"{"name": "", "address": "1", "city": "X", "state": "SD", "zip_code": "1", "latitude": 1, "longitude": 1}"#, .unprocessableContent),
                ("/locations", #"{"name": "A", "address": "1", "city": "X", "state": "SD", "zip_code": "1", "latitude": "north", "longitude": 1}"#, .badRequest),
                ("/locations", "[]", .badRequest),
            ]
            for (path, json, status) in cases {
                let response = try await app.request(path, method: .post, headers: bearer, json: json)
                #expect(response.status == status, "\(path) \(json.prefix(90)): \(response.text)")
            }
            #expect(try await app.request("/bookings", method: .post, json: "{}").status == .unauthorized)
            #expect(try await app.request("/availability/slots?service_id=\(org.service.id)&location_id=\(org.location.id)&date=monday",
                                          headers: bearer).status == .unprocessableContent)
            #expect(try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq == before)
        }
    }
}
