import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterPoP
import MusterRuntime
import MusterTesting
import Testing

@Suite("PoP civics progress: per question, hardest, devices by questions known, activity, per organisation")
struct CivicsProgressTests {
    static func install(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    /// Ten devices: question 1 known by all, question 2 by one, question 3 by none; device n viewed
    /// question 2 n times; device 0 re-sends its batch (counts once) and then unmarks question 1.
    @Test func countsPerDeviceAndFindsTheHardestQuestions() async throws {
        try await apps.withTestApp(["ingest", "query"], configure: ProgressSyncTests.decks) { app in
            let key = try await app.key(app: "pop", [PoPRoutes.readScope, PoPRoutes.writeScope])
            let now = Timestamp.string(Date())
            for n in 0..<10 {
                let changes = [ProgressSyncTests.card(1, views: 1, known: true, at: now),
                               ProgressSyncTests.card(2, views: n + 1, known: n == 0, at: now),
                               ProgressSyncTests.card(3, views: 2, known: false, at: now)]
                let batch = ProgressSyncTests.batch(sentAt: now, changes)
                for _ in 0..<(n == 0 ? 2 : 1) {
                    let r = try await app.request("/api/pop/installs/\(Self.install(n))/changes", method: .post, key: key, json: batch)
                    #expect(r.status == .ok, "\(r.text)")
                }
            }
            let later = Timestamp.string(Date().addingTimeInterval(1))
            _ = try await app.request("/api/pop/installs/\(Self.install(0))/changes", method: .post, key: key,
                                      json: ProgressSyncTests.batch(sentAt: later, [ProgressSyncTests.card(1, views: 1, known: false, at: later)]))
            let last = try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq
            try await app.settled("civics", at: last)

            let questions = try Self.array(try await app.request("/api/pop/civics/questions?deck=us-civics&org=pop-sd", key: key))
            #expect(questions.count == 100, "every question of the deck, seen or not")
            let q1 = try #require(questions.first { $0["id"] as? Int == 1 })
            #expect(q1["question"] as? String == "What is the supreme law of the land?")
            #expect(q1["devices"] as? Int == 10 && q1["views"] as? Int == 10 && q1["known"] as? Int == 9, "\(q1)")
            let q2 = try #require(questions.first { $0["id"] as? Int == 2 })
            #expect(q2["views"] as? Int == 55 && q2["known"] as? Int == 1, "each device's own running count, summed: \(q2)")

            let hardest = try Self.array(try await app.request("/api/pop/civics/hardest?deck=us-civics&minDevices=5&limit=3", key: key))
            #expect(hardest.map { $0["id"] as? Int } == [3, 2, 1], "\(hardest)")
            #expect(try Self.array(try await app.request("/api/pop/civics/hardest?deck=us-civics&minDevices=11", key: key)).isEmpty)

            let known = try Self.array(try await app.request("/api/pop/civics/known?deck=us-civics", key: key))
            #expect(known.first?["from"] as? Int == 0 && known.first?["to"] as? Int == 10 && known.first?["devices"] as? Int == 10)
            #expect(known.count == 10 && known.last?["to"] as? Int == 100)

            let active = try Self.array(try await app.request("/api/pop/civics/active?days=7", key: key))
            #expect(active.count == 7 && active.last?["devices"] as? Int == 10, "\(active)")
            let orgs = try Self.array(try await app.request("/api/pop/civics/orgs", key: key))
            #expect(orgs.first?["state"] as? String == "SD" && orgs.first?["devices"] as? Int == 10)

            // Bad filters are 422s naming them; no key is a 401.
            for query in ["deck=atlantis", "org=nowhere", "deck=us-civics&minDevices=0", "days=1000", "limit=x"] {
                let r = try await app.request("/api/pop/civics/hardest?\(query)", key: key)
                #expect(r.status == .unprocessableContent, "\(query): \(r.text)")
            }
            #expect(try await app.request("/api/pop/civics/orgs").status == .unauthorized)

            // The organisers' page: the sign-in form, then (with a read:civics key) the hardest questions with their texts.
            let form = try await app.request("/pop/civics")
            #expect(form.status == .unauthorized && form.text.contains("action=\"/pop/civics/login\""))
            let page = try await app.request("/pop/civics?deck=us-civics", headers: [.cookie: "muster_session=\(key)"])
            #expect(page.status == .ok && page.text.contains("Hardest questions") && page.text.contains("supreme law of the land"), "\(page.text.prefix(300))")
            #expect(page.text.contains("<svg"))
        }
    }

    static func array(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(response.status == .ok, "\(response.text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [[String: Any]])
    }
}

@Suite("CSV rows: RFC 4180 quoting and formulas neutralised")
struct CSVRowTests {
    @Test func quotesEveryCellAndNeutralisesFormulas() {
        #expect(CSVRow.line(["a", "b,c", "say \"hi\""]) == "\"a\",\"b,c\",\"say \"\"hi\"\"\"\r\n")
        // Full-width forms and `|` too (point 9 of the authorization review), and after leading spaces.
        for start in ["=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "|", "  ="] {
            #expect(CSVRow.line(["\(start)1+1"]) == "\"'\(start)1+1\"\r\n", "\(start.debugDescription)")
        }
        #expect(CSVRow.line(["line\nbreak", "ünïcødé"]) == "\"line\nbreak\",\"ünïcødé\"\r\n")
    }
}
