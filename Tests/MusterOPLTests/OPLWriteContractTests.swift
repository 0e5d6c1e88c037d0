import Foundation
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterOPL
import MusterPlatform
import MusterRuntime
import NIOFoundationEssentialsCompat
import Testing

/// One test per rule of contracts/opl-api.md for the write routes, the places where the apps
/// disagree, and hostile input.
@Suite("OPL contract: submit-strike, gps-snapshot, dns-stats")
struct OPLWriteContractTests {
    static let iOS = """
    {"employer": {"name": "Acme Logistics", "industry": "Warehousing", "website": "https://www.acme-logistics.com"},
     "action": {"organization": "Teamsters Local 120", "actionType": "work_stoppage", "location": "Rapid City, SD",
                "startDate": "2026-02-10T19:23:45Z", "durationDays": 7, "description": "Warehouse strike",
                "contactInfo": "captain@example.org", "coordinates": {"latitude": 44, "longitude": -103.2}}}
    """
    static let android = """
    {"employer": {"name": "Prairie Fresh"},
     "action": {"organization": "UFCW 663", "actionType": "walkout", "location": "Unknown", "startDate": "2026-02-10",
                "durationDays": 30, "description": "Walkout", "contactInfo": "call the hall after 5pm"}}
    """

    func events(_ app: TestApp, _ filter: String) async throws -> [RecordedEvent] {
        try await app.log.read(filter: filter)
    }

    @Test func bothAppsFormsAreAcceptedAndStoredBeforeTheAnswer() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.submitStrike])
            let ios = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: Self.iOS)
            #expect(ios.status == .created)
            let answer = try Client.decode(Client.Submitted.self, Data(buffer: ios.body))
            #expect(answer.success && answer.message == "Submitted for moderation" && answer.id.hasPrefix("act_"))
            // 2xx means it is in the log already.
            let stored = try await events(app, "events.opl.action.\(answer.id).>")
            let submitted = try #require(stored.first?.payload as? ActionSubmitted)
            #expect(submitted.action.actionType == "work_stoppage")
            #expect(submitted.action.startDate == "2026-02-10T19:23:45Z")
            #expect(submitted.action.coordinates == Coordinates(latitude: 44, longitude: -103.2)) // integers where floats go
            #expect(submitted.employer.website == "https://www.acme-logistics.com")

            let android = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: Self.android)
            #expect(android.status == .created)
            let id = try Client.decode(Client.Submitted.self, Data(buffer: android.body)).id
            let second = try #require(try await events(app, "events.opl.action.\(id).>").first?.payload as? ActionSubmitted)
            #expect(second.action.startDate == "2026-02-10T00:00:00Z") // Android's day: midnight UTC
            #expect(second.action.actionType == "walkout" && second.action.durationDays == 30 && second.action.location == "Unknown")
            #expect(second.action.contactInfo == "call the hall after 5pm")

            // Every action type of either app; durationDays absent means 7.
            for type in ["strike", "lockout", "picket", "boycott", "work_stoppage", "other", "walkout", "slowdown"] {
                let body = Self.android.replacingOccurrences(of: "\"walkout\"", with: "\"\(type)\"")
                    .replacingOccurrences(of: "\"durationDays\": 30,", with: "")
                let response = try await app.request("/api/mobile/submit-strike", method: .post, key: try await app.key([OPLScopes.submitStrike]), json: body)
                #expect(response.status == .created, "\(type): \(response.text)")
            }
        }
    }

    @Test func retriesWithTheSameIdempotencyKeyMakeOneEvent() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.submitStrike])
            var ids: Set<String> = []
            for _ in 0..<3 {
                let response = try await app.request("/api/mobile/submit-strike", method: .post, key: key,
                                                     headers: [.idempotencyKey: "retry-1"], json: Self.iOS)
                #expect(response.status == .created)
                ids.insert(try Client.decode(Client.Submitted.self, Data(buffer: response.body)).id)
            }
            #expect(ids.count == 1)
            #expect(try await events(app, "events.opl.action.\(ids.first!).>").count == 1)
            // Another key with the same Idempotency-Key is another submission.
            let other = try await app.request("/api/mobile/submit-strike", method: .post, key: try await app.key([OPLScopes.submitStrike]),
                                              headers: [.idempotencyKey: "retry-1"], json: Self.iOS)
            #expect(try Client.decode(Client.Submitted.self, Data(buffer: other.body)).id != ids.first!)
        }
    }

    @Test func hostileInputIsAClear4xxAndLeavesTheLogAlone() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.submitStrike])
            let before = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.messages
            let huge = "{\"employer\": {\"name\": \"" + String(repeating: "x", count: 2_000_000) + "\"}}"
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("huge body", huge, .contentTooLarge, ""),
                ("not JSON", "employer=acme", .badRequest, "not valid JSON"),
                ("NaN literal", Self.iOS.replacingOccurrences(of: "\"latitude\": 44", with: "\"latitude\": NaN"), .badRequest, ""),
                ("string for number", Self.iOS.replacingOccurrences(of: "\"durationDays\": 7", with: "\"durationDays\": \"7\""), .badRequest, "action.durationDays"),
                ("fraction days", Self.iOS.replacingOccurrences(of: "\"durationDays\": 7", with: "\"durationDays\": 7.5"), .unprocessableContent, "whole number"),
                ("null name", Self.iOS.replacingOccurrences(of: "\"Acme Logistics\"", with: "null"), .badRequest, "employer.name"),
                ("array for object", #"{"employer": [], "action": {}}"#, .badRequest, "employer"),
                ("missing action", #"{"employer": {"name": "A"}}"#, .badRequest, "action is required"),
                ("latitude 91", Self.iOS.replacingOccurrences(of: "\"latitude\": 44", with: "\"latitude\": 91"), .unprocessableContent, "latitude"),
                ("exponent out of range", Self.iOS.replacingOccurrences(of: "\"latitude\": 44", with: "\"latitude\": 1e3"), .unprocessableContent, "latitude"),
                ("unknown type", Self.iOS.replacingOccurrences(of: "work_stoppage", with: "riot"), .unprocessableContent, "action.actionType"),
                ("bad date", Self.iOS.replacingOccurrences(of: "2026-02-10T19:23:45Z", with: "next tuesday"), .unprocessableContent, "startDate"),
                ("zero days", Self.iOS.replacingOccurrences(of: "\"durationDays\": 7", with: "\"durationDays\": 0"), .unprocessableContent, "durationDays"),
                ("empty name", Self.iOS.replacingOccurrences(of: "\"Acme Logistics\"", with: "\"\""), .unprocessableContent, "employer.name"),
                ("long description", Self.iOS.replacingOccurrences(of: "\"Warehouse strike\"", with: "\"\(String(repeating: "é", count: 5001))\""),
                 .unprocessableContent, "action.description"),
            ]
            for (name, body, status, message) in cases {
                let response = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: body)
                #expect(response.status == status, "\(name): \(response.text.prefix(200))")
                #expect(message.isEmpty || response.errorMessage.contains(message), "\(name): \(response.errorMessage)")
                #expect(!response.errorMessage.hasPrefix("<no"), "\(name)")
            }
            // The exponent form of an in-range number is just a number.
            let exponent = Self.iOS.replacingOccurrences(of: "\"latitude\": 44", with: "\"latitude\": 4.4e1")
            #expect(try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: exponent).status == .created)
            let after = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.messages
            #expect(after == before + 1)
        }
    }

    @Test func htmlSQLAndUnicodeAreStoredAsData() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.submitStrike])
            let hostile = #"<script>alert('x')</script>'; DROP TABLE actions;-- Ünïcødé 🚩\ttab"#
            let body = Self.iOS.replacingOccurrences(of: "\"Acme Logistics\"", with: "\"\(hostile)\"")
            let response = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: body)
            #expect(response.status == .created, "\(response.text)")
            let id = try Client.decode(Client.Submitted.self, Data(buffer: response.body)).id
            let stored = try #require(try await events(app, "events.opl.action.\(id).>").first?.payload as? ActionSubmitted)
            #expect(stored.employer.name == "<script>alert('x')</script>'; DROP TABLE actions;-- Ünïcødé 🚩\ttab")
        }
    }

    /// Control characters other than tab and newline never reach the log: 422 naming the field.
    @Test func controlCharactersAreRefusedNamingTheField() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.submitStrike])
            let before = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.messages
            for control in [#"\u0000"#, #"\u001b[31m"#, #"\r"#, #"\b"#, #"\u007f"#, #"\u0085"#] {
                let body = Self.iOS.replacingOccurrences(of: "\"Acme Logistics\"", with: "\"Acme \(control)Logistics\"")
                let response = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: body)
                #expect(response.status == .unprocessableContent, "\(control)")
                #expect(response.errorMessage.contains("employer.name"), "\(control): \(response.errorMessage)")
            }
            let after = try await app.log.jetStream.streamInfo(app.log.configuration.eventsStream).state.messages
            #expect(after == before)
            let multiline = Self.iOS.replacingOccurrences(of: "\"Acme Logistics\"", with: #""Acme\n\tLogistics""#)
            #expect(try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: multiline).status == .created)
        }
    }

    /// Dates that do not exist, and years no strike is in, are refused instead of rolled over.
    @Test func impossibleDatesAreRefused() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.submitStrike])
            for date in ["2026-02-31", "2026-02-30T10:00:00Z", "2025-13-01", "9999-01-01", "1900-01-01T00:00:00Z"] {
                let body = Self.android.replacingOccurrences(of: #""startDate": "2026-02-10""#, with: #""startDate": "\#(date)""#)
                let response = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: body)
                #expect(response.status == .unprocessableContent, "\(date): \(response.text)")
                #expect(response.errorMessage.contains("action.startDate"), "\(date): \(response.errorMessage)")
            }
            let long = Self.android.replacingOccurrences(of: #""durationDays": 30"#, with: #""durationDays": 3651"#)
            let response = try await app.request("/api/mobile/submit-strike", method: .post, key: key, json: long)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage.contains("action.durationDays"), "\(response.errorMessage)")
        }
    }

    @Test func gpsSnapshotNeedsAnActiveActionAndRangedCoordinates() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key([OPLScopes.gpsSnapshot])
            let action = SeededAction()
            try await app.seed([action])
            let ok = try await app.request("/api/mobile/gps-snapshot", method: .post, key: key,
                                           json: #"{"actionId": "\#(action.id)", "latitude": 44, "longitude": -103.23, "notes": "30 people"}"#)
            #expect(ok.status == .created)
            let answer = try Client.decode(Client.Submitted.self, Data(buffer: ok.body))
            #expect(answer.success && answer.message == "Snapshot submitted for moderation" && answer.id.hasPrefix("snp_"))
            #expect(try await events(app, "events.opl.snapshot.\(answer.id).>").count == 1)

            let unknown = try await app.request("/api/mobile/gps-snapshot", method: .post, key: key,
                                                json: #"{"actionId": "act_0000000000000000", "latitude": 44, "longitude": -103}"#)
            #expect(unknown.status == .notFound && unknown.errorMessage.contains("no action"))
            for (lat, lng) in [("91", "0"), ("0", "181"), ("-90.0001", "0")] {
                let response = try await app.request("/api/mobile/gps-snapshot", method: .post, key: key,
                                                     json: #"{"actionId": "\#(action.id)", "latitude": \#(lat), "longitude": \#(lng)}"#)
                #expect(response.status == .unprocessableContent, "\(lat),\(lng)")
            }
            // A submission still waiting for moderation cannot take snapshots yet.
            let pending = OPLIDs.random("act_")
            let seq = try await app.log.append(ActionSubmitted(actionId: pending, employer: EmployerDetails(name: "P"), action: action.details,
                                                               submittedBy: "key_0000000000000001")).sequence
            try await app.settled("opl", at: seq)
            let early = try await app.request("/api/mobile/gps-snapshot", method: .post, key: key,
                                              json: #"{"actionId": "\#(pending)", "latitude": 44, "longitude": -103}"#)
            #expect(early.status == .unprocessableContent)
            #expect(try await app.request("/api/mobile/gps-snapshot", method: .post, key: try await app.key([OPLScopes.readMobile]),
                                          json: #"{"actionId": "\#(action.id)", "latitude": 44, "longitude": -103}"#).status == .forbidden)
        }
    }

    @Test func dnsStatsAreStoredAndAnEmptyKeyIs401() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let report = """
            {"instanceId": "pi-hole kitchen", "version": "0.3.1", "uptime": 3600, "totalQueries": 100, "queriesBlocked": 7,
             "queriesForwarded": 93, "bypassesIssued": 1, "activeSessions": 2, "blocklistSize": 40, "blocklistEmployers": 12,
             "lastBlocklistRefresh": "2026-11-20T10:00:00Z", "topBlockedDomains": [{"domain": "acme-logistics.com", "count": 5}],
             "queriesSinceLastReport": 10, "blockedSinceLastReport": 1, "forwardedSinceLastReport": 9, "bypassesSinceLastReport": 0}
            """
            let none = try await app.request("/api/dns-stats/report", method: .post, key: "", json: report)
            #expect(none.status == .unauthorized && !none.errorMessage.hasPrefix("<no"))
            let key = try await app.key([OPLScopes.dnsStats])
            #expect(try await app.request("/api/dns-stats/report", method: .post, key: key, json: report).status == .accepted)
            #expect(try await app.request("/api/dns-stats/report", method: .post, key: key, json: report).status == .accepted)
            let stored = try await events(app, "events.opl.dnsfilter.>")
            #expect(stored.count == 2) // periodic reports are each new
            #expect((stored.first?.payload as? DNSStatsReported)?.reportedBy?.hasPrefix("key_") == true)
            #expect(stored.first?.aggregateID == "pi-hole_kitchen")
            let negative = report.replacingOccurrences(of: "\"totalQueries\": 100", with: "\"totalQueries\": -1")
            #expect(try await app.request("/api/dns-stats/report", method: .post, key: key, json: negative).status == .unprocessableContent)
        }
    }
}
