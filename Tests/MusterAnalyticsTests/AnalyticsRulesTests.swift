import Foundation
import MusterAnalytics
import MusterEvents
import Testing

/// The pure parts, without I/O: clocks, endpoints, fingerprints, the funnel, the alert rules.
@Suite("Analytics rules")
struct AnalyticsRulesTests {
    @Test func aWrongDeviceClockIsCorrectedByTheBatchInterval() throws {
        // The device is 2 hours behind; the event happened 3 minutes before the batch was sent.
        let received = Timestamp.millis("2026-11-21T14:00:00.500Z")!
        let clock = try #require(EventClock(sentAt: "2026-11-21T12:00:00Z", receivedMillis: received))
        let times = try clock.times(createdAt: "2026-11-21T11:57:00Z", field: "created_at")
        #expect(times.occurredAt == "2026-11-21T13:57:00.500Z")
        #expect(times.createdAt == "2026-11-21T11:57:00.000Z" && times.receivedAt == "2026-11-21T14:00:00.500Z")
        // Offsets are understood; a batch three days old is fine; after sent_at or a month old is not.
        #expect(try clock.times(createdAt: "2026-11-21T13:57:00+02:00", field: "x").occurredAt == "2026-11-21T13:57:00.500Z")
        #expect(try clock.times(createdAt: "2026-11-18T12:00:00Z", field: "x").occurredAt == "2026-11-18T14:00:00.500Z")
        #expect(throws: ItemError.self) { try clock.times(createdAt: "2026-11-21T12:05:00Z", field: "x") }
        #expect(throws: ItemError.self) { try clock.times(createdAt: "2026-10-01T12:00:00Z", field: "x") }
        #expect(throws: ItemError.self) { try clock.times(createdAt: "yesterday", field: "x") }
    }

    @Test func timestampsRoundTrip() {
        for text in ["1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2026-11-21T14:00:05.120Z", "1969-12-31T23:59:59.000Z"] {
            #expect(Timestamp.string(millis: Timestamp.millis(text)!) == text)
        }
        #expect(Timestamp.millis("2026-13-01T00:00:00Z") == nil)
        // Any fraction length, kept to the millisecond (Python writes 6 digits, Java's Instant 9):
        // 4 to 9 digits once trapped the whole process.
        let fractions = ["1": 100, "12": 120, "123": 123, "1234": 123, "12345": 123, "123456": 123, "1234567": 123,
                         "12345678": 123, "123456789": 123, "1234567891": 123, String(repeating: "9", count: 40): 999]
        for (digits, ms) in fractions {
            #expect(Timestamp.millis("2026-11-21T14:00:05.\(digits)Z") == 1_795_269_605_000 + Int64(ms), "\(digits)")
            #expect(Timestamp.millis("2026-11-21T15:00:05.\(digits)+01:00") == 1_795_269_605_000 + Int64(ms), "\(digits)")
        }
        #expect(Timestamp.millis("2026-11-21T14:00:05.Z") == nil)
        // Only days the calendar has.
        #expect(Timestamp.millis("2026-02-31T00:00:00Z") == nil)
        #expect(Timestamp.millis("2023-02-29T00:00:00Z") == nil)
        #expect(Timestamp.millis("2024-02-29T00:00:00Z") != nil)
        #expect(Timestamp.millis("2026-04-31T00:00:00Z") == nil)
        #expect(Timestamp.millis(day: "2026-02-31") == nil)
        #expect(Timestamp.millis(day: "2026-02-28") == Timestamp.millis("2026-02-28T00:00:00Z"))
    }

    @Test func endpointsLoseIdsQueriesAndHosts() {
        let r = Redactor()
        #expect(EndpointNormalizer.normalize("https://api.offleash.app/bookings/8121/cancel?token=abc", redactor: r) == "/bookings/{id}/cancel")
        #expect(EndpointNormalizer.normalize("/locations/550e8400-e29b-41d4-a716-446655440000/default", redactor: r) == "/locations/{id}/default")
        #expect(EndpointNormalizer.normalize("/api/mobile/actions/act_0a1b2c3d4e5f6a7b", redactor: r) == "/api/mobile/actions/{id}")
        #expect(EndpointNormalizer.normalize("/users/jane@example.com/bookings", redactor: r) == "/users/[email]/bookings")
        #expect(EndpointNormalizer.normalize("/services?active=true", redactor: r) == "/services")
        #expect(EndpointNormalizer.normalize("/auth/validate", redactor: r) == "/auth/validate")
    }

    @Test func fingerprintsIgnoreWhatChangesBetweenBuilds() {
        func frames(_ names: [String]) -> [CrashRecorded.Frame] {
            names.map { .init(function: $0, module: "OFFLEASH", file: nil, line: nil, inApp: true) } +
                [.init(function: "UIApplicationMain", module: "UIKitCore", file: nil, line: nil, inApp: false)]
        }
        let a = CrashFingerprint.make(type: "EXC_BAD_ACCESS", frames: frames(["closure #1 in BookingView.submit() + 124", "Array<Booking>.load() + 8"]))
        let b = CrashFingerprint.make(type: "EXC_BAD_ACCESS", frames: frames(["closure #3 in BookingView.submit() + 96", "Array<Walk>.load() + 12"]))
        let c = CrashFingerprint.make(type: "SIGABRT", frames: frames(["closure #1 in BookingView.submit() + 124", "Array<Booking>.load() + 8"]))
        #expect(a == b)
        #expect(a != c)
        #expect(CrashFingerprint.normalize("closure #2 in Foo<Bar>.baz(_:) + 0x1f") == "closure in Foo.baz(_:)")
    }

    func hit(_ step: String, _ minute: Int64, segment: String = "new", version: String = "2.3.0") -> FunnelProjection.Hit {
        .init(step: step, at: minute * 60_000, segment: segment, appVersion: version)
    }

    @Test func funnelCountsEachPersonByTheirBestJourneyInOrderWithinTheWindow() {
        let people: [String: [FunnelProjection.Hit]] = [
            // Completes everything within an hour.
            "a": [hit("login", 0), hit("services", 1), hit("location", 2), hit("booking_start", 3), hit("booking_complete", 4)],
            // Registers, sees services, stops.
            "b": [hit("register", 0, segment: "returning"), hit("services", 5, segment: "returning")],
            // Out of order: location before services does not count as the location step.
            "c": [hit("login", 0), hit("location", 1), hit("services", 2)],
            // Completes, but the booking comes 25 hours after login: outside the 24 h window.
            "d": [hit("login", 0, version: "2.2.0"), hit("services", 1, version: "2.2.0"), hit("location", 2, version: "2.2.0"),
                  hit("booking_start", 3, version: "2.2.0"), hit("booking_complete", 25 * 60, version: "2.2.0")],
            // Never starts the funnel.
            "e": [hit("services", 0)],
            // Two journeys; the second gets further.
            "f": [hit("login", 0), hit("login", 3000), hit("services", 3001), hit("location", 3002)],
        ]
        let report = FunnelReport(query: FunnelQuery(funnel: "booking", steps: FunnelQuery.bookingSteps), people: people.values)
        // By hand: step reached by a,b,c,d,f = 5; services a,b,c,d,f = 5; location a,d,f = 3; start a,d = 2; complete a = 1.
        #expect(report.steps.map(\.people) == [5, 5, 3, 2, 1])
        #expect(report.steps.map(\.dropOff) == [0, 0, 2, 1, 1])
        #expect(report.steps[2].conversion == 3.0 / 5.0)
        #expect(report.steps[4].conversionFromStart == 1.0 / 5.0)
        #expect(report.bySegment.map(\.key) == ["new", "returning"])
        #expect(report.bySegment[1].steps.map(\.people) == [1, 1, 0, 0, 0])
        #expect(report.byAppVersion.map(\.key) == ["2.2.0", "2.3.0"])
        #expect(report.byAppVersion[0].steps.map(\.people) == [1, 1, 1, 1, 0])
        // A 26-hour window lets d complete.
        let wide = FunnelReport(query: FunnelQuery(funnel: "booking", steps: FunnelQuery.bookingSteps, windowMillis: 26 * 3_600_000), people: people.values)
        #expect(wide.steps.map(\.people) == [5, 5, 3, 2, 2])
    }

    @Test func errorRateAlertFiresAboveTheMinimumAndResolvesItself() {
        var rules = AlertRules()
        var transitions: [AlertTransition] = []
        let endpoint = "POST /bookings"
        // 19 requests, 10 failed: above 5 % but below the minimum of 20 → nothing.
        for i in 0..<19 { transitions += rules.apiCall(app: "offleash", endpoint: endpoint, minute: 100, failed: i < 10) }
        #expect(transitions.isEmpty)
        // The 20th request makes it count: 10/20 = 50 % → raised.
        transitions += rules.apiCall(app: "offleash", endpoint: endpoint, minute: 100, failed: false)
        #expect(transitions.map(\.kind) == [.raised])
        #expect(transitions.first?.observed == 0.5 && transitions.first?.count == 20)
        // Healthy traffic five minutes later: the window holds only good requests → resolved, same alert id.
        for _ in 0..<30 { transitions += rules.apiCall(app: "offleash", endpoint: endpoint, minute: 105, failed: false) }
        #expect(transitions.map(\.kind) == [.raised, .resolved])
        #expect(transitions[0].alertId == transitions[1].alertId)
        // Exactly 5 % is not more than 5 %.
        var edge = AlertRules()
        var fired: [AlertTransition] = []
        for i in 0..<40 { fired += edge.apiCall(app: "offleash", endpoint: endpoint, minute: 7, failed: i >= 38) }
        #expect(fired.isEmpty)
    }

    @Test func aFiringAlertResolvesWhenItsEndpointGoesQuietWhileTheAppCarriesOn() {
        var rules = AlertRules()
        var transitions: [AlertTransition] = []
        for _ in 0..<25 { transitions += rules.apiCall(app: "offleash", endpoint: "GET /services", minute: 10, failed: true) }
        transitions += rules.tick(app: "offleash", minute: 12)
        #expect(transitions.map(\.kind) == [.raised])
        transitions += rules.tick(app: "offleash", minute: 15)
        #expect(transitions.map(\.kind) == [.raised, .resolved])
        #expect(transitions[1].message.contains("no failures"))
    }

    @Test func aFiringAlertDoesNotFlapWhenTrafficHoversAroundTheMinimum() {
        var rules = AlertRules()
        var transitions: [AlertTransition] = []
        for i in 0..<20 { transitions += rules.apiCall(app: "offleash", endpoint: "POST /bookings", minute: 50, failed: i < 8) }
        // Five minutes on, 10 requests with 4 failures: too few to call it recovered, so it stays raised.
        for i in 0..<10 { transitions += rules.apiCall(app: "offleash", endpoint: "POST /bookings", minute: 55, failed: i < 4) }
        #expect(transitions.map(\.kind) == [.raised])
        // Enough healthy requests resolve it.
        for _ in 0..<200 { transitions += rules.apiCall(app: "offleash", endpoint: "POST /bookings", minute: 56, failed: false) }
        #expect(transitions.map(\.kind) == [.raised, .resolved])
    }

    @Test func lateEventsFillTheChartsButDoNotFireTodaysAlerts() {
        var rules = AlertRules()
        _ = rules.tick(app: "offleash", minute: 10_000)
        var transitions: [AlertTransition] = []
        for _ in 0..<50 { transitions += rules.apiCall(app: "offleash", endpoint: "GET /services", minute: 5_000, failed: true) }
        #expect(transitions.isEmpty)
    }

    @Test func crashSpikeComparesTheLastHourWithTheDayBefore() {
        var rules = AlertRules()
        var transitions: [AlertTransition] = []
        // A steady day: one crash an hour for 24 hours.
        for hour in 0..<24 { transitions += rules.crash(app: "offleash", minute: Int64(hour * 60)) }
        #expect(transitions.isEmpty)
        // Then 5 crashes in ten minutes: 5 ≥ max(5, 3 × 1) → raised.
        for m in 0..<5 { transitions += rules.crash(app: "offleash", minute: Int64(24 * 60 + m * 2)) }
        #expect(transitions.map(\.kind) == [.raised])
        #expect(transitions[0].rule == .crashSpike && transitions[0].count == 5)
        // An hour later with no crashes, sessions go on: resolved.
        transitions += rules.tick(app: "offleash", minute: 26 * 60)
        #expect(transitions.map(\.kind) == [.raised, .resolved])
    }

    @Test func theFunnelFoldKeepsABoundedNumberOfFunnelsAndSteps() throws {
        let catalog = EventCatalog.analytics
        var state = FunnelProjection.initialState
        let stamp = "2026-11-21T14:00:00.000Z"
        let context = AnalyticsContext(app: "offleash", appVersion: "2.3.0", osName: "iOS", osVersion: "17.5", deviceModel: "iPhone15,2")
        func apply(_ n: Int, funnel: String, step: String) throws {
            let e = FunnelReached(eventId: "e\(n)", sessionId: "s\(n)", context: context,
                                  times: AnalyticsTimes(createdAt: stamp, sentAt: stamp, receivedAt: stamp, occurredAt: stamp),
                                  funnel: funnel, step: step, segment: "new")
            let event = try catalog.decode(subject: FunnelReached.eventType.subject(aggregateID: e.sessionId), sequence: UInt64(n + 1),
                                           payload: try JSONEncoder().encode(EventEnvelope(source: "test", data: e)))
            try FunnelProjection.apply(event, to: &state)
        }
        for n in 0..<(FunnelProjection.maxSteps + 10) { try apply(n, funnel: "booking", step: "step\(n)") }
        for n in 0..<(FunnelProjection.maxFunnels + 10) { try apply(1000 + n, funnel: "f\(n)", step: "start") }
        #expect(state.steps["offleash"]?["booking"]?.count == FunnelProjection.maxSteps)
        #expect(state.steps["offleash"]?.count == FunnelProjection.maxFunnels)
        // A known step of a known funnel still counts.
        let before = state.events
        try apply(5000, funnel: "booking", step: "step1")
        #expect(state.events == before + 1)
    }
}
