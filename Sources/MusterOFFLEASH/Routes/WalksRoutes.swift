import Crypto
import Foundation
import HTTPTypes
package import Hummingbird
import MusterEvents
import MusterPlatform
package import MusterRuntime
import MusterJSON

/// OFFLEASH's catalog, locations, walkers and bookings: `/services`, `/locations`, `/walkers`,
/// `/availability/slots`, `/bookings`. Every route takes the person's bearer token.
package enum WalksRoutes {
    static let maxBody = 16 * 1024

    package static func add(to routes: Routes<Router<MusterRequestContext>>, walks: Walks) {

        routes.get("/services", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let active = request.uri.queryParameters.get("active")
            guard active == nil || active == "true" || active == "false" else { throw APIError(.badRequest, "active must be true or false") }
            let services = await walks.services(claims, activeOnly: active == "true")
            return try taggedJSON(request, services.map(ServiceBody.init))
        }
        routes.post("/services", access: .person(OFFLEASHRole.admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(ServiceRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            let service = try await walks.defineService(claims, serviceId: nil, fields(body))
            return try JSONResponse.make(.created, ServiceBody(service))
        }
        routes.put("/services/{id}", access: .person(OFFLEASHRole.admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(ServiceRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            let service = try await walks.defineService(claims, serviceId: try context.parameters.require("id"), fields(body))
            return try JSONResponse.make(.ok, ServiceBody(service))
        }

        routes.get("/locations", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, try await walks.locations(claims).map(LocationBody.init))
        }
        routes.post("/locations", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(LocationRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            guard let details = body.details() else { throw APIError(.unprocessableContent, "latitude and longitude are required") }
            let view = try await walks.saveLocation(claims, locationId: nil, details, isDefault: body.isDefault)
            return try JSONResponse.make(.created, LocationBody(view))
        }
        routes.put("/locations/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let id = try context.parameters.require("id")
            let current = try await walks.location(claims, locationId: id) // whose, before what they sent
            let body = try await RequestJSON.decode(LocationRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            guard let details = body.details(keeping: current.details) else { throw APIError(.unprocessableContent, "latitude and longitude are required") }
            let view = try await walks.saveLocation(claims, locationId: id, details, isDefault: body.isDefault)
            return try JSONResponse.make(.ok, LocationBody(view))
        }
        routes.delete("/locations/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            try await walks.removeLocation(claims, locationId: try context.parameters.require("id"))
            return Response(status: .noContent)
        }
        routes.put("/locations/{id}/default", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, LocationBody(try await walks.makeDefault(claims, locationId: try context.parameters.require("id"))))
        }

        routes.get("/walkers", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, try await walks.walkerList(claims).map { WalkerBody(id: $0.id, firstName: $0.firstName, lastName: $0.lastName) })
        }
        routes.put("/walkers/{id}/roster", access: .person(OFFLEASHRole.admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(RosterRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            let shifts = try body.shifts.enumerated().map { index, shift in
                guard let start = minutes(shift.start), let end = minutes(shift.end) else {
                    throw APIError(.unprocessableContent, "shifts.\(index): start and end must be HH:MM")
                }
                return WalkerRostered.Shift(weekday: shift.weekday, startMinute: start, endMinute: end)
            }
            try await walks.setRoster(claims, walkerId: try context.parameters.require("id"), timeZone: body.timeZone, shifts: shifts)
            return Response(status: .noContent)
        }

        routes.get("/availability/slots", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let query = request.uri.queryParameters
            guard let serviceId = query.get("service_id"), let locationId = query.get("location_id"), let date = query.get("date") else {
                throw APIError(.badRequest, "service_id, location_id and date (YYYY-MM-DD) are required")
            }
            let slots = try await walks.slots(claims, serviceId: serviceId, locationId: locationId, date: date)
            return try JSONResponse.make(.ok, SlotsBody(date: date, serviceId: serviceId, slots: slots.map {
                SlotsBody.SlotBody(startTime: Timestamp.string(millis: $0.start, fraction: false),
                                   endTime: Timestamp.string(millis: $0.end, fraction: false), availableWalkers: $0.walkers)
            }))
        }

        routes.post("/bookings", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(BookingRequestBody.self, from: request, maxBody: maxBody, allowNulls: true)
            guard let start = ContractDates.parse(body.startTime) else {
                throw APIError(.unprocessableContent, "start_time must be an ISO-8601 date-time")
            }
            let key = request.headers[.idempotencyKey]
            if let key, !(1...200).contains(key.count) { throw APIError(.badRequest, "Idempotency-Key must be 1 to 200 characters") }
            let booking = try await walks.book(claims, Walks.BookingRequest(walkerId: body.walkerId, serviceId: body.serviceId,
                                                                            locationId: body.locationId, start: start, notes: body.notes,
                                                                            idempotencyKey: key))
            return try JSONResponse.make(.created, BookingBody(booking, listed: false))
        }
        routes.post("/bookings/recurring", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(RecurringRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            return try JSONResponse.make(.created, RecurringBody(try await walks.createSeries(claims, body.request)))
        }
        routes.get("/bookings/recurring", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, RecurringList(recurringBookings: try await walks.series(claims).map(RecurringBody.init)),
                                         headers: [.cacheControl: "private, no-store"])
        }
        routes.delete("/bookings/recurring/{id}", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let count = try await walks.cancelSeries(claims, seriesId: try context.parameters.require("id"))
            return try JSONResponse.make(.ok, SeriesCancelledBody(cancelledBookingsCount: count))
        }
        routes.get("/bookings/customer", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, try await walks.bookings(claims, asWalker: false).map { BookingBody($0, listed: true) })
        }
        routes.get("/bookings/walker", access: .person(OFFLEASHRole.walker)) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, try await walks.bookings(claims, asWalker: true).map { BookingBody($0, listed: true) })
        }
        for (action, change) in [("confirm", "confirmed"), ("cancel", "cancelled"), ("complete", "completed")] {
            routes.post("/bookings/{id}/\(action)", access: .offleashPerson) { request, context in
                let claims = try context.claims()
                let view = try await walks.change(claims, bookingId: try context.parameters.require("id"), to: change)
                return try JSONResponse.make(.ok, BookingBody(view, listed: false))
            }
        }
        // A walker's calendar loads these beside /bookings/walker: [] rather than an error when none.
        routes.get("/blocks", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            return try JSONResponse.make(.ok, await walks.blocks(claims).map { BlockBody($0, walkerId: claims.personId) }, headers: [.cacheControl: "private, no-store"])
        }
        routes.post("/blocks", access: .person(OFFLEASHRole.walker, .admin)) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(BlockRequest.self, from: request, maxBody: maxBody, allowNulls: true)
            guard let start = ContractDates.parse(body.startTime) else { throw APIError(.unprocessableContent, "start_time must be an ISO-8601 date-time") }
            guard let end = ContractDates.parse(body.endTime) else { throw APIError(.unprocessableContent, "end_time must be an ISO-8601 date-time") }
            let block = try await walks.block(claims, reason: body.reason, start: start, end: end)
            return try JSONResponse.make(.created, BlockBody(block, walkerId: claims.personId))
        }

        routes.post("/bookings/{id}/reschedule", access: .offleashPerson) { request, context in
            let claims = try context.claims()
            let body = try await RequestJSON.decode(RescheduleBody.self, from: request, maxBody: maxBody, allowNulls: true)
            // An unreadable time is judged after the booking is found to be the caller's: another
            // customer's booking answers 404 whatever the body holds.
            let start = (body.scheduledStart ?? body.startTime).flatMap(ContractDates.parse)
            let view = try await walks.change(claims, bookingId: try context.parameters.require("id"), to: "rescheduled", newStart: start)
            return try JSONResponse.make(.ok, BookingBody(view, listed: false))
        }
    }

    static func fields(_ body: ServiceRequest) -> Walks.ServiceFields {
        Walks.ServiceFields(name: body.name, description: body.description, durationMinutes: body.durationMinutes,
                            priceCents: body.priceCents, isActive: body.isActive ?? true)
    }

    /// `HH:MM` (24 h) as minutes after midnight; `24:00` ends a day.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0...24).contains(hours), (0..<60).contains(minutes), hours * 60 + minutes <= 1440 else { return nil }
        return hours * 60 + minutes
    }

    /// The JSON answer with a strong `ETag` of its bytes; 304 when the client has it already.
    static func taggedJSON(_ request: Request, _ body: some Encodable) throws -> Response {
        let bytes = try JSONResponse.encoder.encode(body)
        let tag = "\"" + Hex.lowercase(SHA256.hash(data: bytes).prefix(16)) + "\""
        if JSONResponse.isCurrent(request, etag: tag) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "private, no-cache"])
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .eTag: tag, .cacheControl: "private, no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
