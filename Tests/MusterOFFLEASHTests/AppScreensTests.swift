import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterStandIns
import MusterAppTesting
import MusterLog
import MusterNATS
import MusterOFFLEASH
import MusterRuntime
import NIOFoundationEssentialsCompat
import Testing

/// Strict mirrors of the contract's `Membership`, `/contexts`, switch, `WalkerBlock` and the error body.
struct ContractMembership: Decodable, Equatable {
    enum Role: String, Decodable { case customer, walker, admin, owner }
    var id: String
    var organizationId: String
    var organizationName: String
    var organizationSlug: String
    var role: Role
    var title: String?
    var joinedAt: String?
    enum CodingKeys: String, CodingKey {
        case id, organizationId = "organization_id", organizationName = "organization_name", organizationSlug = "organization_slug", role, title,
             joinedAt = "joined_at"
    }
}

struct ContractContexts: Decodable {
    var memberships: [ContractMembership]
    var defaultMembershipId: String?
    enum CodingKeys: String, CodingKey { case memberships, defaultMembershipId = "default_membership_id" }
}

struct ContractSwitched: Decodable {
    var token: String
    var membership: ContractMembership
}

struct ContractBlock: Decodable {
    var id: String
    var walkerId: String
    var reason: String
    var startTime: Date
    var endTime: Date
    var isRecurring: Bool
    var recurrenceRule: String?
    enum CodingKeys: String, CodingKey {
        case id, walkerId = "walker_id", reason, startTime = "start_time", endTime = "end_time", isRecurring = "is_recurring", recurrenceRule = "recurrence_rule"
    }
}

/// The app reads only a top-level string `message` of an error body.
struct ContractErrorBody: Decodable {
    var message: String
}

/// The screens the app reached with a 404 or 405 before: profile, password, contexts, the walker's
/// calendar, rescheduling; and the races the app's untouched retries make.
@Suite("OFFLEASH app screens: profile, contexts, blocks, reschedule, races")
struct AppScreensTests {
    static func customer(_ app: TestApp, _ email: String) async throws -> String {
        try WalksContractTests.decode(ContractSignedIn.self, try await AccountContractTests.register(app, email: email)).token
    }

    @Test func errorsCarryAMessageTheAppShows() async throws {
        try await AccountContractTests.withDemo { app, _ in
            for response in [try await app.request("/auth/validate"), try await app.request("/auth/login", method: .post, json: "{}"),
                             try await app.request("/no/such/screen")] {
                let error = try WalksContractTests.decode(ContractErrorBody.self, response)
                #expect(!error.message.isEmpty && response.errorMessage == error.message, "\(response.text)")
            }
        }
    }

    @Test func profileEditsArePartialAndPasswordChangesNeverSignOut() async throws {
        try await AccountContractTests.withDemo { app, _ in
            let bearer = AccountContractTests.bearer(try await Self.customer(app, "sam@example.com"))
            let edited = try await app.request("/users/me", method: .put, headers: bearer, json: #"{"first_name": "Samantha", "phone": "+1 555 555 0123"}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            let user = try WalksContractTests.decode(ContractUser.self, edited)
            #expect(user.firstName == "Samantha" && user.lastName == "Runner" && user.role == "customer" && !user.organizationId.isEmpty)
            // The walker screen sends empty names: no change.
            let walkerForm = try WalksContractTests.decode(ContractUser.self, try await app.request("/users/me", method: .put, headers: bearer,
                                                                                                   json: #"{"first_name": "", "last_name": ""}"#))
            #expect(walkerForm.firstName == "Samantha" && walkerForm.lastName == "Runner")
            #expect(try await app.request("/users/me", method: .put, headers: bearer, json: #"{"phone": "call me"}"#).status == .unprocessableContent)
            #expect(try WalksContractTests.decode(ContractUser.self, try await app.request("/users/me", headers: bearer)).firstName == "Samantha")

            // A wrong or missing current password is a 400 with a message, never the 401 that signs the app out.
            for body in [#"{"current_password": "nope", "new_password": "Leashes2027"}"#, #"{"new_password": "Leashes2027"}"#] {
                let refused = try await app.request("/users/me/password", method: .put, headers: bearer, json: body)
                let message = try WalksContractTests.decode(ContractErrorBody.self, refused).message
                #expect(refused.status == .badRequest && !message.isEmpty)
            }
            let weak = try await app.request("/users/me/password", method: .put, headers: bearer,
                                             json: #"{"current_password": "Walkies2026", "new_password": "short"}"#)
            #expect(weak.status == .unprocessableContent)
            let changed = try await app.request("/users/me/password", method: .put, headers: bearer,
                                                json: #"{"current_password": "Walkies2026", "new_password": "Leashes2027"}"#)
            #expect(changed.status == .ok && changed.json["success"] as? Bool == true, "\(changed.text)")
            let old = try await app.request("/auth/login", method: .post, json: #"{"email": "sam@example.com", "password": "Walkies2026"}"#)
            #expect(old.status == .badRequest)
            let new = try await app.request("/auth/login", method: .post, json: #"{"email": "sam@example.com", "password": "Leashes2027"}"#)
            #expect(new.status == .ok)
            #expect(try WalksContractTests.decode(ContractSignedIn.self, new).user.firstName == "Samantha", "the profile survived the password change")
        }
    }

    @Test func contextsDecideTheTabsAndSwitchKeepsTheBusiness() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            for (token, role) in [(org.customer, ContractMembership.Role.customer),
                                  (try await WalksContractTests.token(app, "walker0@example.com"), .walker)] {
                let bearer = AccountContractTests.bearer(token)
                let contexts = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: bearer))
                let membership = try #require(contexts.memberships.first)
                #expect(contexts.memberships.count == 1 && membership.role == role && membership.organizationSlug == "demo")
                #expect(contexts.defaultMembershipId == membership.id)
                let switched = try await app.request("/contexts/switch", method: .post, headers: bearer, json: #"{"membership_id": "\#(membership.id)"}"#)
                let answer = try WalksContractTests.decode(ContractSwitched.self, switched)
                #expect(answer.membership == membership)
                #expect(try await app.request("/auth/validate", headers: AccountContractTests.bearer(answer.token)).status == .ok)
                // Someone else's membership, or none: 404 with a message, never 401.
                let other = try await app.request("/contexts/switch", method: .post, headers: bearer, json: #"{"membership_id": "\#(org.walkers[0] == membership.id ? "x" : org.walkers[0])"}"#)
                #expect(other.status == .notFound)
            }
        }
    }

    @Test func walkersBlockTimeAndNoBookingTakesIt() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let walker = AccountContractTests.bearer(try await WalksContractTests.token(app, "walker0@example.com"))
            let customer = AccountContractTests.bearer(org.customer)
            #expect(try WalksContractTests.decode([ContractBlock].self, try await app.request("/blocks", headers: walker)).isEmpty)
            let made = try await app.request("/blocks", method: .post, headers: walker, json: """
            {"reason": "Vet appointment", "start_time": "\(org.monday)T12:00:00Z", "end_time": "\(org.monday)T13:00:00Z"}
            """)
            #expect(made.status == .created, "\(made.text)")
            let block = try WalksContractTests.decode(ContractBlock.self, made)
            #expect(block.reason == "Vet appointment" && block.walkerId == org.walkers[0] && !block.isRecurring)
            #expect(try WalksContractTests.decode([ContractBlock].self, try await app.request("/blocks", headers: walker)).map(\.id) == [block.id])
            // The break takes the walker's only slot at 12:30: no booking there; 14:00 is still free.
            let taken = try await app.request("/bookings", method: .post, headers: customer, json: """
            {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(org.monday)T12:30:00Z"}
            """)
            #expect(taken.status == .conflict, "\(taken.text)")
            let free = try await app.request("/bookings", method: .post, headers: customer, json: """
            {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(org.monday)T14:00:00Z"}
            """)
            #expect(free.status == .created, "\(free.text)")
            // Customers have no blocks and may not make them; an end before the start is refused.
            #expect(try WalksContractTests.decode([ContractBlock].self, try await app.request("/blocks", headers: customer)).isEmpty)
            #expect(try await app.request("/blocks", method: .post, headers: customer, json: """
            {"reason": "Nap", "start_time": "\(org.monday)T15:00:00Z", "end_time": "\(org.monday)T16:00:00Z"}
            """).status == .forbidden)
            #expect(try await app.request("/blocks", method: .post, headers: walker, json: """
            {"reason": "Backwards", "start_time": "\(org.monday)T16:00:00Z", "end_time": "\(org.monday)T15:00:00Z"}
            """).status == .unprocessableContent)
        }
    }

    @Test func rescheduleTakesTheAppsFieldAndChecksOwnershipFirst() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            let booking = try WalksContractTests.decode(ContractBooking.self, try await app.request("/bookings", method: .post, headers: customer, json: """
            {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(org.monday)T10:00:00Z"}
            """))
            let stranger = AccountContractTests.bearer(try await Self.customer(app, "stranger@example.com"))
            for body in [#"{"scheduled_start": "whenever"}"#, "{}", #"{"scheduled_start": "\#(org.monday)T11:00:00Z"}"#] {
                #expect(try await app.request("/bookings/\(booking.id)/reschedule", method: .post, headers: stranger, json: body).status == .notFound)
            }
            #expect(try await app.request("/bookings/\(booking.id)/reschedule", method: .post, headers: customer,
                                          json: #"{"scheduled_start": "whenever"}"#).status == .unprocessableContent)
            let moved = try await app.request("/bookings/\(booking.id)/reschedule", method: .post, headers: customer,
                                              json: #"{"scheduled_start": "\#(org.monday)T11:00:00Z"}"#)
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(try WalksContractTests.decode(ContractBooking.self, moved).scheduledStart == ISO8601DateFormatter().date(from: "\(org.monday)T11:00:00Z"))
        }
    }

    /// The app sends no idempotency key: 50 taps of one address save it once.
    @Test func fiftyConcurrentSavesOfOneAddressMakeOne() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let bearer = AccountContractTests.bearer(org.customer)
            let json = #"{"name": "Park", "address": "9 Elm St", "city": "Rapid City", "state": "SD", "zip_code": "57702", "latitude": 44.1, "longitude": -103.2}"#
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<50 { group.addTask { try await app.request("/locations", method: .post, headers: bearer, json: json).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1 && statuses.filter { $0 == .conflict }.count == 49, "\(statuses)")
            let listed = try WalksContractTests.decode([ContractLocation].self, try await app.request("/locations", headers: bearer))
            #expect(listed.filter { $0.address == "9 Elm St" }.count == 1)
        }
    }
}

/// `RecurringBooking` as the app decodes it.
struct ContractRecurring: Decodable {
    enum Frequency: String, Decodable { case weekly, biweekly, monthly }
    enum Status: String, Decodable { case active, paused, cancelled, completed }
    var id: String
    var customerId: String
    var walkerId: String?
    var serviceId: String
    var locationId: String
    var frequency: Frequency
    var dayOfWeek: Int?
    var timeSlot: String
    var status: Status
    var startDate: Date
    var endDate: Date?
    var occurrences: Int?
    var completedOccurrences: Int
    var nextBookingDate: Date?
    var priceCents: Int
    var priceDisplay: String
    var createdAt: Date?
    enum CodingKeys: String, CodingKey {
        case id, customerId = "customer_id", walkerId = "walker_id", serviceId = "service_id", locationId = "location_id", frequency,
             dayOfWeek = "day_of_week", timeSlot = "time_slot", status, startDate = "start_date", endDate = "end_date", occurrences,
             completedOccurrences = "completed_occurrences", nextBookingDate = "next_booking_date", priceCents = "price_cents",
             priceDisplay = "price_display", createdAt = "created_at"
    }
}

struct ContractRecurringList: Decodable {
    var recurringBookings: [ContractRecurring]
    enum CodingKeys: String, CodingKey { case recurringBookings = "recurring_bookings" }
}

@Suite("OFFLEASH recurring walks over HTTP")
struct RecurringWalksTests {
    static func series(_ org: WalksContractTests.Org, location: String? = nil, time: String = "10:00 AM", extra: String = #""occurrences": 4"#) -> String {
        """
        {"service_id": "\(org.service.id)", "location_id": "\(location ?? org.location.id)", "frequency": "weekly", "day_of_week": 1,
         "start_time": "\(time)", "start_date": "\(org.monday)", \(extra)}
        """
    }

    @Test func aWeeklySeriesBooksEachFreeMondayWithOneWalkerAndCancelsWhatIsToCome() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            // The third Monday is taken already: the series skips it.
            let third = ISO8601DateFormatter().date(from: "\(org.monday)T10:00:00Z")!.addingTimeInterval(14 * 86_400)
            let taken = try await app.request("/bookings", method: .post, headers: customer, json: """
            {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(ISO8601DateFormatter().string(from: third))"}
            """)
            #expect(taken.status == .created)
            let made = try await app.request("/bookings/recurring", method: .post, headers: customer, json: Self.series(org))
            #expect(made.status == .created, "\(made.text)")
            let series = try WalksContractTests.decode(ContractRecurring.self, made)
            #expect(series.status == .active && series.frequency == .weekly && series.timeSlot == "10:00 AM" && series.occurrences == 4)
            #expect(series.walkerId == org.walkers[0] && series.priceDisplay == "$25.00" && series.completedOccurrences == 0)
            #expect(series.startDate == ISO8601DateFormatter().date(from: "\(org.monday)T12:00:00Z"), "a date the app sent comes back at noon UTC")
            #expect(series.nextBookingDate == ISO8601DateFormatter().date(from: "\(org.monday)T10:00:00Z"))
            let bookings = try WalksContractTests.decode([ContractBooking].self, try await app.request("/bookings/customer", headers: customer))
            #expect(bookings.count == 4, "three of the series and the one booked before")
            // Asked again (the app sends no key): the same series, nothing booked twice.
            let again = try WalksContractTests.decode(ContractRecurring.self, try await app.request("/bookings/recurring", method: .post, headers: customer,
                                                                                                   json: Self.series(org)))
            #expect(again.id == series.id)
            let listed = try WalksContractTests.decode(ContractRecurringList.self, try await app.request("/bookings/recurring", headers: customer))
            #expect(listed.recurringBookings.map(\.id) == [series.id])

            let stranger = AccountContractTests.bearer(try await AppScreensTests.customer(app, "other@example.com"))
            #expect(try await app.request("/bookings/recurring/\(series.id)", method: .delete, headers: stranger).status == .notFound)
            let cancelled = try await app.request("/bookings/recurring/\(series.id)", method: .delete, headers: customer)
            #expect(cancelled.status == .ok && cancelled.json["cancelled_bookings_count"] as? Int == 3, "\(cancelled.text)")
            #expect(try await app.request("/bookings/recurring/\(series.id)", method: .delete, headers: customer).status == .conflict)
            let after = try WalksContractTests.decode([ContractBooking].self, try await app.request("/bookings/customer", headers: customer))
            #expect(after.filter { $0.status == "cancelled" }.count == 3 && after.filter { $0.status == "pending" }.count == 1)
            let list = try WalksContractTests.decode(ContractRecurringList.self, try await app.request("/bookings/recurring", headers: customer))
            #expect(list.recurringBookings.first?.status == .cancelled)
        }
    }

    @Test func unreadableOrImpossibleSeriesAreRefusedClearly() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            let before = try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq
            for (body, status) in [(Self.series(org, time: "9:00 午前"), HTTPResponse.Status.unprocessableContent),
                                   (Self.series(org, extra: #""occurrences": 4, "end_date": "2027-01-01""#), .unprocessableContent),
                                   (Self.series(org, extra: #""occurrences": 99"#), .unprocessableContent),
                                   (Self.series(org, time: "6:00 AM"), .conflict), // before the walker's shift on every Monday
                                   (Self.series(org, location: "someone-elses"), .notFound)] {
                let response = try await app.request("/bookings/recurring", method: .post, headers: customer, json: body)
                #expect(response.status == status, "\(body): \(response.text)")
                #expect(!(try WalksContractTests.decode(ContractErrorBody.self, response).message.isEmpty))
            }
            #expect(try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq == before, "nothing stored")
        }
    }

    /// Series and single bookings from 50 requests race for one walker's Mondays: no two walks overlap.
    @Test func fiftyRacingSeriesAndBookingsNeverDoubleBookTheWalker() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            var places = [org.location.id]
            for index in 1..<50 {
                places.append(try WalksContractTests.decode(ContractLocation.self, try await app.request("/locations", method: .post, headers: customer, json: """
                {"name": "Place \(index)", "address": "\(index) Pine St", "city": "Rapid City", "state": "SD", "zip_code": "57701", "latitude": 44.08, "longitude": -103.23}
                """)).id)
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, place) in places.enumerated() {
                    let (path, json) = index.isMultiple(of: 2)
                        ? ("/bookings/recurring", Self.series(org, location: place, extra: #""occurrences": 3"#))
                        : ("/bookings", #"{"service_id": "\#(org.service.id)", "location_id": "\#(place)", "start_time": "\#(org.monday)T10:00:00Z"}"#)
                    group.addTask { try await app.request(path, method: .post, headers: customer, json: json).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { [.created, .conflict].contains($0) }, "\(statuses)")
            #expect(statuses.contains(.created))
            let walker = AccountContractTests.bearer(try await WalksContractTests.token(app, "walker0@example.com"))
            let walks = try WalksContractTests.decode([ContractBooking].self, try await app.request("/bookings/walker", headers: walker))
                .filter { $0.status != "cancelled" }.sorted { $0.scheduledStart < $1.scheduledStart }
            #expect(!walks.isEmpty)
            for (earlier, later) in zip(walks, walks.dropFirst()) {
                #expect(earlier.scheduledEnd <= later.scheduledStart, "\(earlier.id) and \(later.id) overlap")
            }
        }
    }
}

/// `Pet` as the app decodes it: enums closed, `date_of_birth` a whole date-time.
struct ContractPet: Decodable {
    enum Species: String, Decodable { case dog, cat, other }
    enum Gender: String, Decodable { case male, female, unknown }
    enum Vaccination: String, Decodable { case upToDate = "up_to_date", partial, expired, unknown }
    var id: String
    var userId: String
    var name: String
    var species: Species
    var gender: Gender
    var isSpayedNeutered: Bool
    var vaccinationStatus: Vaccination
    var dateOfBirth: Date?
    var weightLbs: Double?
    var breed: String?
    var vetPhone: String?
    var createdAt: Date?
    var updatedAt: Date?
    enum CodingKeys: String, CodingKey {
        case id, userId = "user_id", name, species, gender, isSpayedNeutered = "is_spayed_neutered", vaccinationStatus = "vaccination_status",
             dateOfBirth = "date_of_birth", weightLbs = "weight_lbs", breed, vetPhone = "vet_phone", createdAt = "created_at", updatedAt = "updated_at"
    }
}

@Suite("OFFLEASH pets over HTTP")
struct PetsTests {
    @Test func aCustomerAddsEditsListsAndRemovesPets() async throws {
        try await AccountContractTests.withDemo { app, _ in
            let bearer = AccountContractTests.bearer(try await AppScreensTests.customer(app, "pat@example.com"))
            #expect(try app.decodeJSON([String: [ContractPet]].self, try await app.request("/pets", headers: bearer))["pets"]?.isEmpty == true)
            let added = try await app.request("/pets", method: .post, headers: bearer, json: """
            {"name": " Biscuit ", "species": "dog", "gender": "female", "is_spayed_neutered": true, "vaccination_status": "up_to_date",
             "breed": "Beagle", "date_of_birth": "2021-05-01", "weight_lbs": 24.5, "vet_phone": "+1 605 555 0100"}
            """)
            #expect(added.status == .created, "\(added.text)")
            let pet = try WalksContractTests.decode(ContractPet.self, added)
            #expect(pet.name == "Biscuit" && pet.species == .dog && pet.breed == "Beagle" && pet.weightLbs == 24.5)
            #expect(pet.dateOfBirth == ISO8601DateFormatter().date(from: "2021-05-01T12:00:00Z"))
            // An edit changes what it names; the rest stays (the app cannot clear a field).
            let edited = try WalksContractTests.decode(ContractPet.self, try await app.request("/pets/\(pet.id)", method: .put, headers: bearer, json: """
            {"name": "Biscuit", "species": "dog", "gender": "female", "is_spayed_neutered": true, "vaccination_status": "partial"}
            """))
            #expect(edited.vaccinationStatus == .partial && edited.breed == "Beagle" && edited.vetPhone == "+1 605 555 0100")
            let minimal = try WalksContractTests.decode(ContractPet.self, try await app.request("/pets", method: .post, headers: bearer, json: """
            {"name": "Tom", "species": "cat", "gender": "unknown", "is_spayed_neutered": false, "vaccination_status": "unknown"}
            """))
            let listed = try app.decodeJSON([String: [ContractPet]].self, try await app.request("/pets", headers: bearer))["pets"] ?? []
            #expect(listed.map(\.id) == [pet.id, minimal.id])
            for bad in [#"{"name": "  ", "species": "dog"}"#, #"{"name": "Rex", "species": "dinosaur"}"#, #"{"name": "Rex"}"#,
                        #"{"name": "Rex", "species": "dog", "gender": "both"}"#, #"{"name": "Rex", "species": "dog", "date_of_birth": "2099-01-01"}"#,
                        #"{"name": "Rex", "species": "dog", "weight_lbs": -3}"#] {
                #expect(try await app.request("/pets", method: .post, headers: bearer, json: bad).status == .unprocessableContent, "\(bad)")
            }
            #expect(try await app.request("/pets/\(minimal.id)", method: .delete, headers: bearer).status == .noContent)
            #expect(try await app.request("/pets/\(minimal.id)", headers: bearer).status == .notFound)
            let after = try app.decodeJSON([String: [ContractPet]].self, try await app.request("/pets", headers: bearer))["pets"] ?? []
            #expect(after.map(\.id) == [pet.id])
        }
    }
}

extension TestApp {
    func decodeJSON<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try WalksContractTests.decode(T.self, response)
    }
}

@Suite("OFFLEASH walker profile and service areas over HTTP")
struct WalkerProfileTests {
    @Test func aWalkerSavesTheirProfileAndAreasAndACustomerMayNot() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let walker = AccountContractTests.bearer(try await WalksContractTests.token(app, "walker0@example.com"))
            let customer = AccountContractTests.bearer(org.customer)
            let empty = try await app.request("/walker/profile", headers: walker)
            #expect(empty.status == .ok && (empty.json["specializations"] as? [Any])?.isEmpty == true, "\(empty.text)")
            let saved = try await app.request("/walker/profile", method: .put, headers: walker, json: """
            {"bio": "Dog lover", "emergency_contact_name": "Alex Lee", "specializations": ["largeBreeds", "senior_dogs", "anxiousDogs"]}
            """)
            #expect(saved.status == .ok, "\(saved.text)")
            let specializations = (saved.json["specializations"] as? [[String: Any]])?.compactMap { $0["specialization"] as? String }
            #expect(specializations == ["largeBreeds", "seniors", "anxiousDogs"], "the app's tokens, the repo's read as the same")
            // specializations replace the set; omitted keys stay.
            let again = try await app.request("/walker/profile", method: .put, headers: walker, json: #"{"specializations": []}"#)
            #expect(again.json["bio"] as? String == "Dog lover" && (again.json["specializations"] as? [Any])?.isEmpty == true)
            #expect(try await app.request("/walker/profile", method: .put, headers: walker, json: #"{"specializations": ["cats"]}"#).status == .unprocessableContent)
            #expect(try await app.request("/walker/profile", headers: customer).status == .forbidden)

            let area = """
            {"name": "Area 1", "color": "#3b82f6", "polygon": [{"lat": 39.76, "lng": -105.0}, {"lat": 39.74, "lng": -104.98}, {"lat": 39.73, "lng": -105.01}],
             "is_active": true, "priority": 0, "price_adjustment_percent": 0}
            """
            let first = try await app.request("/walker/service-areas", method: .post, headers: walker, json: area)
            #expect(first.status == .created, "\(first.text)")
            let second = try await app.request("/walker/service-areas", method: .post, headers: walker, json: area)
            #expect(second.json["id"] as? String == first.json["id"] as? String, "a second tap of Save is the same area")
            let listed = try await app.request("/walker/service-areas", headers: walker)
            #expect(((try? JSONSerialization.jsonObject(with: Data(buffer: listed.body))) as? [Any])?.count == 1)
            #expect(try await app.request("/walker/service-areas", method: .post, headers: walker, json: """
            {"name": "Line", "color": "#3B82F6", "polygon": [{"lat": 1, "lng": 1}, {"lat": 2, "lng": 2}]}
            """).status == .unprocessableContent)
            let id = try #require(first.json["id"] as? String, "\(first.status): \(first.text)")
            // The route is walkers' and admins' (its rule): a customer is refused whatever the id, which tells nothing.
            #expect(try await app.request("/walker/service-areas/\(id)", method: .delete, headers: customer).status == .forbidden)
            let removed = try await app.request("/walker/service-areas/\(id)", method: .delete, headers: walker)
            #expect(removed.status == .ok && removed.json["success"] as? Bool == true)
        }
    }
}

@Suite("OFFLEASH feedback and branding over HTTP")
struct FeedbackTests {
    @Test func feedbackIsCheckedAndAnsweredWithAnIdAndBrandingIsPublic() async throws {
        try await AccountContractTests.withDemo { app, _ in
            let bearer = AccountContractTests.bearer(try await AppScreensTests.customer(app, "fran@example.com"))
            let sent = try await app.request("/feedback", method: .post, headers: bearer, json: """
            {"type": "bug", "title": "Map is blank", "description": "The walker map shows no pins after I book a walk."}
            """)
            #expect(sent.status == .created && (sent.json["id"] as? String)?.isEmpty == false, "\(sent.text)")
            for bad in [#"{"type": "bug", "title": "Map", "description": "The walker map shows no pins after I book."}"#,
                        #"{"type": "bug", "title": "Map is blank", "description": "Too short."}"#,
                        #"{"type": "praise", "title": "Map is blank", "description": "The walker map shows no pins after I book."}"#] {
                #expect(try await app.request("/feedback", method: .post, headers: bearer, json: bad).status == .unprocessableContent, "\(bad)")
            }
            #expect(try await app.request("/feedback", method: .post, json: #"{"type": "bug", "title": "x", "description": "y"}"#).status == .unauthorized)
            let branding = try await app.request("/api/branding")
            #expect(branding.status == .ok && branding.json["company_name"] as? String == "Demo walks" && branding.json["logo_url"] as? String == "")
        }
    }
}

/// `PaymentMethod`, `CheckoutResponse` and `Transaction` as the app decodes them.
struct ContractCard: Decodable {
    var id: String
    var methodType: String
    var displayName: String
    var cardLastFour: String?
    var isDefault: Bool
    var isExpired: Bool
    var createdAt: String
    enum CodingKeys: String, CodingKey {
        case id, methodType = "method_type", displayName = "display_name", cardLastFour = "card_last_four", isDefault = "is_default",
             isExpired = "is_expired", createdAt = "created_at"
    }
}

struct ContractCheckout: Decodable {
    var transactionId: String
    var status: String
    var subtotalCents: Int
    var customerFeeCents: Int
    var taxCents: Int
    var totalCents: Int
    var providerType: String
    enum CodingKeys: String, CodingKey {
        case transactionId = "transaction_id", status, subtotalCents = "subtotal_cents", customerFeeCents = "customer_fee_cents", taxCents = "tax_cents",
             totalCents = "total_cents", providerType = "provider_type"
    }
}

struct ContractTransaction: Decodable {
    enum Status: String, Decodable { case pending, processing, succeeded, failed, refunded, partiallyRefunded = "partially_refunded", disputed, canceled }
    var id: String
    var bookingId: String?
    var status: Status
    var subtotalCents: Int
    var customerFeeCents: Int
    var taxCents: Int
    var totalCents: Int
    var tipCents: Int?
    var createdAt: String
    var isCustomer: Bool?
    enum CodingKeys: String, CodingKey {
        case id, bookingId = "booking_id", status, subtotalCents = "subtotal_cents", customerFeeCents = "customer_fee_cents", taxCents = "tax_cents",
             totalCents = "total_cents", tipCents = "tip_cents", createdAt = "created_at", isCustomer = "is_customer"
    }
}

@Suite("OFFLEASH payments over HTTP: cards, checkout, refunds")
struct PaymentsTests {
    /// The demo org, charging through the real Stripe client against the local stand-in.
    static func withPayingOrg(live: Bool = false, _ body: @escaping @Sendable (TestApp, WalksContractTests.Org, PaymentsStandIn.Ledger) async throws -> Void) async throws {
        let ledger = PaymentsStandIn.Ledger()
        try await Application(router: PaymentsStandIn.router(ledger: ledger)).test(.live) { standIn in
            let port = try #require(standIn.port)
            try await WalksContractTests.withOrg(walkers: 1, live: live, configure: {
                $0[OFFLEASHSettings.self].paymentsURL = "http://127.0.0.1:\(port)"
                $0[OFFLEASHSettings.self].paymentsKey = "sk_test_muster"
            }) { app, org in try await body(app, org, ledger) }
        }
    }

    static func card(_ lastFour: String, month: Int = 12, year: Int = 2031) -> String {
        #"{"method_type": "card", "card_last_four": "\#(lastFour)", "card_brand": "visa", "card_exp_month": \#(month), "card_exp_year": \#(year), "is_default": true}"#
    }

    @Test func aCustomerPaysABookingOnceAndIsRefundedOnce() async throws {
        try await Self.withPayingOrg { app, org, ledger in
            let customer = AccountContractTests.bearer(org.customer)
            let booking = try WalksContractTests.decode(ContractBooking.self, try await app.request("/bookings", method: .post, headers: customer, json: """
            {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(org.monday)T10:00:00Z"}
            """))
            let visa = try WalksContractTests.decode(ContractCard.self, try await app.request("/payment-methods", method: .post, headers: customer, json: Self.card("4242")))
            #expect(visa.displayName == "Visa •••• 4242" && visa.isDefault && !visa.isExpired)
            #expect(try await app.request("/payment-methods", method: .post, headers: customer, json: Self.card("4242", month: 13)).status == .unprocessableContent)
            let preview = try await app.request("/checkout/preview-fees", method: .post, headers: customer, json: #"{"subtotal_cents": 2500, "tip_cents": 375}"#)
            #expect(preview.json["customer_fee_cents"] as? Int == 75 && preview.json["total_cents"] as? Int == 2950, "\(preview.text)")
            // The app sends its own subtotal; the booking's price is what counts.
            let checkout = try WalksContractTests.decode(ContractCheckout.self, try await app.request("/checkout", method: .post, headers: customer, json: """
            {"booking_id": "\(booking.id)", "payment_method_id": "\(visa.id)", "subtotal_cents": 1, "tip_cents": 375, "provider_user_id": "\(booking.walkerId)"}
            """))
            #expect(checkout.subtotalCents == 2500 && checkout.totalCents == 2950 && checkout.status == "pending")
            let again = try WalksContractTests.decode(ContractCheckout.self, try await app.request("/checkout", method: .post, headers: customer, json: """
            {"booking_id": "\(booking.id)", "payment_method_id": "\(visa.id)", "subtotal_cents": 2500, "tip_cents": 375, "provider_user_id": "\(booking.walkerId)"}
            """))
            #expect(again.transactionId == checkout.transactionId, "the unpaid checkout is reused")
            let stranger = AccountContractTests.bearer(try await AppScreensTests.customer(app, "thief@example.com"))
            #expect(try await app.request("/checkout/\(checkout.transactionId)/confirm", method: .post, headers: stranger,
                                          json: #"{"payment_method_id": "\#(visa.id)"}"#).status == .notFound)
            let paid = try WalksContractTests.decode(ContractCheckout.self, try await app.request("/checkout/\(checkout.transactionId)/confirm", method: .post,
                                                                                                 headers: customer, json: #"{"payment_method_id": "\#(visa.id)"}"#))
            #expect(paid.status == "succeeded" && paid.totalCents == 2950 && paid.providerType == "stripe")
            #expect(await ledger.intents.values.map(\.amount) == [2950], "charged once, the total")
            #expect(try await app.request("/checkout", method: .post, headers: customer, json: """
            {"booking_id": "\(booking.id)", "payment_method_id": "\(visa.id)", "subtotal_cents": 2500, "provider_user_id": ""}
            """).status == .conflict, "paid already")
            // Fifty refund requests at once: one refund.
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await app.request("/checkout/\(checkout.transactionId)/refund", method: .post, headers: customer, json: "{}").status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .unprocessableContent }.count == 49, "\(statuses)")
            let detail = try WalksContractTests.decode(ContractTransaction.self, try await app.request("/transactions/\(checkout.transactionId)", headers: customer))
            #expect(detail.status == .refunded && detail.tipCents == 375 && detail.isCustomer == true)
            let listed = try WalksContractTests.decode([ContractTransaction].self, try await app.request("/transactions", headers: customer))
            #expect(listed.map(\.id) == [checkout.transactionId])
            #expect(try await app.request("/transactions/\(checkout.transactionId)", headers: stranger).status == .notFound)
        }
    }

    /// A booking of the org's customer, a card ending in `lastFour`, and a checkout of the one with the other.
    static func checkout(_ app: TestApp, _ org: WalksContractTests.Org, card lastFour: String) async throws
        -> (booking: ContractBooking, card: ContractCard, checkout: ContractCheckout) {
        let customer = AccountContractTests.bearer(org.customer)
        let booking = try WalksContractTests.decode(ContractBooking.self, try await app.request("/bookings", method: .post, headers: customer, json: """
        {"service_id": "\(org.service.id)", "location_id": "\(org.location.id)", "start_time": "\(org.monday)T10:00:00Z"}
        """))
        let card = try WalksContractTests.decode(ContractCard.self, try await app.request("/payment-methods", method: .post, headers: customer, json: Self.card(lastFour)))
        let checkout = try WalksContractTests.decode(ContractCheckout.self, try await app.request("/checkout", method: .post, headers: customer, json: """
        {"booking_id": "\(booking.id)", "payment_method_id": "\(card.id)", "subtotal_cents": 2500, "provider_user_id": "\(booking.walkerId)"}
        """))
        return (booking, card, checkout)
    }

    @Test func declinesRecurringPlaceholdersAndOthersCardsAreRefusedClearly() async throws {
        try await Self.withPayingOrg { app, org, ledger in
            let customer = AccountContractTests.bearer(org.customer)
            let (booking, declined, checkout) = try await Self.checkout(app, org, card: "0002")
            let refused = try await app.request("/checkout/\(checkout.transactionId)/confirm", method: .post, headers: customer,
                                                json: #"{"payment_method_id": "\#(declined.id)"}"#)
            #expect(refused.status.code == 402 && refused.errorMessage.contains("declined"), "\(refused.text)")
            // Another card pays: a new checkout of the same booking.
            let good = try WalksContractTests.decode(ContractCard.self, try await app.request("/payment-methods", method: .post, headers: customer, json: Self.card("4242")))
            let second = try WalksContractTests.decode(ContractCheckout.self, try await app.request("/checkout", method: .post, headers: customer, json: """
            {"booking_id": "\(booking.id)", "payment_method_id": "\(good.id)", "subtotal_cents": 2500, "provider_user_id": "\(booking.walkerId)"}
            """))
            #expect(second.transactionId != checkout.transactionId)
            // The provider failing is a 503 with Retry-After, and nothing recorded: the retry charges once.
            await ledger.failNext(1)
            let down = try await app.request("/checkout/\(second.transactionId)/confirm", method: .post, headers: customer,
                                             json: #"{"payment_method_id": "\#(good.id)"}"#)
            #expect(down.status == .serviceUnavailable && down.headers[.retryAfter] != nil, "\(down.text)")
            #expect(try await app.request("/checkout/\(second.transactionId)/confirm", method: .post, headers: customer,
                                          json: #"{"payment_method_id": "\#(good.id)"}"#).status == .ok)
            #expect(await ledger.intents.values.filter { $0.status == "succeeded" }.count == 1)
            let recurring = try await app.request("/checkout", method: .post, headers: customer, json: """
            {"booking_id": "recurring", "payment_method_id": "\(good.id)", "subtotal_cents": 2500, "provider_user_id": ""}
            """)
            #expect(recurring.status == .unprocessableContent && recurring.errorMessage.contains("one walk at a time"))
            let stranger = AccountContractTests.bearer(try await AppScreensTests.customer(app, "other@example.com"))
            #expect(try await app.request("/payment-methods/\(good.id)/default", method: .put, headers: stranger, json: "{}").status == .notFound)
            #expect(try await app.request("/payment-methods/\(good.id)", method: .delete, headers: stranger).status == .notFound)
            // The default removed, the oldest left becomes the default.
            #expect(try await app.request("/payment-methods/\(good.id)", method: .delete, headers: customer).status == .noContent)
            let left = try WalksContractTests.decode([ContractCard].self, try await app.request("/payment-methods", headers: customer))
            #expect(left.map(\.id) == [declined.id] && left.first?.isDefault == true)
        }
    }

    @Test func withoutAProviderAConfirmIs503AndNothingIsCharged() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            let (_, visa, checkout) = try await Self.checkout(app, org, card: "4242")
            let refused = try await app.request("/checkout/\(checkout.transactionId)/confirm", method: .post, headers: customer,
                                                json: #"{"payment_method_id": "\#(visa.id)"}"#)
            #expect(refused.status == .serviceUnavailable && refused.errorMessage.contains("not configured"), "\(refused.text)")
            let detail = try WalksContractTests.decode(ContractTransaction.self, try await app.request("/transactions/\(checkout.transactionId)", headers: customer))
            #expect(detail.status == .pending)
        }
    }
}

struct ContractSubscription: Decodable {
    var id: String
    var name: String
    var status: String
    var priceCents: Int
    var interval: String
    var intervalCount: Int
    var cancelAtPeriodEnd: Bool
    var autoCreateBookings: Bool
    var createdAt: String
    enum CodingKeys: String, CodingKey {
        case id, name, status, priceCents = "price_cents", interval, intervalCount = "interval_count", cancelAtPeriodEnd = "cancel_at_period_end",
             autoCreateBookings = "auto_create_bookings", createdAt = "created_at"
    }
}

@Suite("OFFLEASH subscriptions over HTTP")
struct SubscriptionsTests {
    @Test func oneActiveSubscriptionPerPlanAndAPlanSetsTheFee() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            let body = #"{"name": "Weekday Walks", "price_cents": 9900, "interval": "week", "auto_create_bookings": true}"#
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<50 {
                    group.addTask { (try? WalksContractTests.decode(ContractSubscription.self, try await app.request("/subscriptions/customer", method: .post,
                                                                                                                    headers: customer, json: body)))?.id }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(ids.allSatisfy { $0 != nil } && Set(ids).count == 1, "\(ids)")
            let listed = try WalksContractTests.decode([ContractSubscription].self, try await app.request("/subscriptions/customer", headers: customer))
            #expect(listed.count == 1 && listed[0].intervalCount == 1 && listed[0].status == "active")
            let stranger = AccountContractTests.bearer(try await AppScreensTests.customer(app, "sub@example.com"))
            #expect(try await app.request("/subscriptions/customer/\(listed[0].id)", method: .delete, headers: stranger).status == .notFound)
            let cancelled = try WalksContractTests.decode(ContractSubscription.self, try await app.request("/subscriptions/customer/\(listed[0].id)", method: .delete,
                                                                                                          headers: customer))
            #expect(cancelled.cancelAtPeriodEnd && cancelled.status == "active", "access goes on until the period ends")
            #expect(try await app.request("/subscriptions/customer", method: .post, headers: customer,
                                          json: #"{"name": "Daily", "price_cents": 100, "interval": "day"}"#).status == .unprocessableContent)
            // The organisation's plan: admins only; on Professional the customer fee is 2 %.
            #expect(try await app.request("/subscriptions/tenant", headers: customer).status == .forbidden)
            let admin = AccountContractTests.bearer(org.admin)
            #expect(try await app.request("/subscriptions/tenant", headers: admin).text == "null")
            let plan = try await app.request("/subscriptions/tenant", method: .post, headers: admin, json: #"{"plan_tier": "professional", "billing_period": "monthly"}"#)
            #expect(plan.status == .created && plan.json["customer_fee_percent"] as? Double == 2.0, "\(plan.text)")
            let preview = try await app.request("/checkout/preview-fees", method: .post, headers: customer, json: #"{"subtotal_cents": 2500}"#)
            #expect(preview.json["customer_fee_cents"] as? Int == 50 && preview.json["customer_fee_percent"] as? Double == 2.0, "\(preview.text)")
            let tiers = try await app.request("/subscriptions/tiers", headers: customer)
            #expect(tiers.status == .ok && tiers.text.contains("enterprise"))
        }
    }
}

@Suite("OFFLEASH businesses: create one, join one, switch between them")
struct BusinessesTests {
    @Test func aWalkerStartsABusinessAndSwitchesIntoIt() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let founder = AccountContractTests.bearer(try await AppScreensTests.customer(app, "founder@example.com"))
            let created = try await app.request("/walker/create-tenant", method: .post, headers: founder, json: #"{"business_name": " Happy Paws ", "slug": "happy-paws-"}"#)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["slug"] as? String == "happy-paws" && created.json["name"] as? String == "Happy Paws" && created.json["id"] is String)
            let rival = AccountContractTests.bearer(try await AppScreensTests.customer(app, "rival@example.com"))
            let second = try await app.request("/walker/create-tenant", method: .post, headers: rival, json: #"{"business_name": "Happy Paws", "slug": "happy-paws"}"#)
            let secondSlug = try #require(second.json["slug"] as? String, "\(second.status): \(second.text)")
            #expect(secondSlug != "happy-paws" && secondSlug.hasPrefix("happy-paws-"), "another business's address is never handed over")
            #expect(try await app.request("/walker/create-tenant", method: .post, headers: founder, json: #"{"business_name": "Hi", "slug": "hi"}"#).status == .unprocessableContent)
            // One person starts at most five.
            for index in 2...5 {
                #expect(try await app.request("/walker/create-tenant", method: .post, headers: rival, json: #"{"business_name": "Rival \#(index)"}"#).status == .created)
            }
            #expect(try await app.request("/walker/create-tenant", method: .post, headers: rival, json: #"{"business_name": "Rival 6"}"#).status == .conflict)

            // The app keeps its token: /contexts lists both, the default still the token's business.
            let contexts = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: founder))
            #expect(contexts.memberships.map(\.role) == [.customer, .owner] && contexts.defaultMembershipId == contexts.memberships[0].id)
            let owner = try #require(contexts.memberships.last)
            #expect(owner.title == "Business Owner" && owner.organizationSlug == "happy-paws")
            let switched = try WalksContractTests.decode(ContractSwitched.self, try await app.request("/contexts/switch", method: .post, headers: founder,
                                                                                                     json: #"{"membership_id": "\#(owner.id)"}"#))
            #expect(switched.membership == owner)
            let asOwner = AccountContractTests.bearer(switched.token)
            let now = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: asOwner))
            #expect(now.defaultMembershipId == owner.id, "the new token is the business's")
            // The owner runs the business: its catalog is its own, empty until they add to it.
            #expect(try WalksContractTests.decode([ContractService].self, try await app.request("/services", headers: asOwner)).isEmpty)
            #expect(try await app.request("/services", method: .post, headers: asOwner, json: """
            {"name": "Happy hour walk", "duration_minutes": 60, "price_cents": 3000}
            """).status == .created)
            #expect(try WalksContractTests.decode([ContractService].self, try await app.request("/services", headers: founder)) == [org.service],
                    "the old token still sees the old business")
        }
    }

    @Test func twentyBusinessesAskedAtOnceMakeFive() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, _ in
            let founder = AccountContractTests.bearer(try await AppScreensTests.customer(app, "eager@example.com"))
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<20 {
                    group.addTask { try await app.request("/walker/create-tenant", method: .post, headers: founder, json: #"{"business_name": "Eager \#(index)"}"#).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 5 && statuses.filter { $0 == .conflict }.count == 15, "\(statuses)")
            let contexts = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: founder))
            #expect(contexts.memberships.filter { $0.role == .owner }.count == 5)
        }
    }

    @Test func joiningAsACustomerMakesOneMembershipWhoeverAsksAtOnce() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, _ in
            let owner = AccountContractTests.bearer(try await AppScreensTests.customer(app, "owner2@example.com"))
            _ = try await app.request("/walker/create-tenant", method: .post, headers: owner, json: #"{"business_name": "Bark Park", "slug": "bark-park"}"#)
            let customer = AccountContractTests.bearer(try await AppScreensTests.customer(app, "joiner@example.com"))
            #expect(try await app.request("/contexts/join-as-customer/no-such-business", method: .post, headers: customer).status == .notFound)
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let joined = try await app.request("/contexts/join-as-customer/bark-park", method: .post, headers: customer)
                        return (joined.json["membership"] as? [String: Any])?["id"] as? String
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(ids.allSatisfy { $0 != nil } && Set(ids).count == 1, "\(ids)")
            let contexts = try WalksContractTests.decode(ContractContexts.self, try await app.request("/contexts", headers: customer))
            #expect(contexts.memberships.count == 2 && contexts.memberships.last?.role == .customer && contexts.memberships.last?.organizationSlug == "bark-park")
        }
    }
}

@Suite("OFFLEASH location edits as the app's code would send them")
struct LocationEditTests {
    @Test func anEditWithZipAndNoCoordinatesKeepsThemAndAnothersIs404() async throws {
        try await WalksContractTests.withOrg(walkers: 1) { app, org in
            let customer = AccountContractTests.bearer(org.customer)
            let edit = #"{"name": "Home", "address": "2 Main St", "city": "Rapid City", "state": "SD", "zip": "57701", "is_default": true}"#
            let edited = try await app.request("/locations/\(org.location.id)", method: .put, headers: customer, json: edit)
            #expect(edited.status == .ok, "\(edited.text)")
            let location = try WalksContractTests.decode(ContractLocation.self, edited)
            #expect(location.address == "2 Main St" && location.latitude == org.location.latitude && location.longitude == org.location.longitude)
            let stranger = AccountContractTests.bearer(try await AppScreensTests.customer(app, "edit@example.com"))
            #expect(try await app.request("/locations/\(org.location.id)", method: .put, headers: stranger, json: "{}").status == .notFound)
            #expect(try await app.request("/locations", method: .post, headers: customer, json: edit).status == .unprocessableContent, "a new place needs its coordinates")
        }
    }
}
