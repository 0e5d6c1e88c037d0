import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterPlatform
import MusterPoP
import MusterRuntime
import MusterTesting
import Testing

@Suite("PoP progress sync over HTTP: offline batches, two devices of one person, pulls since a cursor")
struct ProgressSyncTests {
    static let (phone, tablet) = ("6f1c2b1e-2d4a-4b5e-9a3c-0d1e2f3a4b5c", "7A2D3C2F-3E5B-4C6F-8B4D-1E2F3A4B5C6D")
    static func decks(_ configuration: inout MusterConfiguration) { configuration[PoPSettings.self].configPath = Repository.path("deploy/pop") }

    static func card(_ question: Int, views: Int, known: Bool, at time: String, deck: String = "us-civics", id: String = UUID().uuidString) -> String {
        #"{"mutationId": "\#(id)", "card": {"deck": "\#(deck)", "questionId": \#(question), "timesViewed": \#(views), "lastViewed": "\#(time)", "isMarkedKnown": \#(known), "changedAt": "\#(time)"}}"#
    }

    static func batch(sentAt: String, _ changes: [String]) -> String {
        #"{"sentAt": "\#(sentAt)", "changes": [\#(changes.joined(separator: ","))]}"#
    }

    @Test func twoDevicesOfOnePersonMergeAndPullOnlyWhatChanged() async throws {
        try await apps.withTestApp(["ingest"], configure: Self.decks) { app in
            let key = try await app.key(app: "pop", [PoPRoutes.readScope, PoPRoutes.writeScope])
            let now = Date()
            // The phone's clock is three hours fast: its times are placed by its sentAt.
            let fast = { (seconds: Double) in Timestamp.string(now.addingTimeInterval(3 * 3600 + seconds)) }
            let retried = Self.batch(sentAt: fast(0), [Self.card(12, views: 3, known: true, at: fast(-600)),
                                                       Self.card(13, views: 1, known: false, at: fast(-500))])
            let first = try await app.request("/api/pop/installs/\(Self.phone)/changes", method: .post, key: key, json: retried)
            #expect(first.status == .ok, "\(first.text)")
            #expect((first.json["results"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "applied" } == true, "\(first.text)")
            let again = try await app.request("/api/pop/installs/\(Self.phone)/changes", method: .post, key: key, json: retried)
            #expect(again.status == .ok)
            #expect(try await app.log.read(filter: "events.pop.install.*.synced.v1").count == 1, "a retried batch stores nothing new")

            // The tablet (uppercase ids, as iOS writes them) viewed question 12 twice and unmarked it later.
            let slow = Timestamp.string(now)
            let tablet = try await app.request("/api/pop/installs/\(Self.tablet)/changes", method: .post, key: key,
                                               json: Self.batch(sentAt: slow, [Self.card(12, views: 2, known: false, at: Timestamp.string(now.addingTimeInterval(-60)))]))
            #expect(tablet.status == .ok, "\(tablet.text)")

            // Apart, each sees its own.
            let own = try await app.request("/api/pop/installs/\(Self.phone)/progress", key: key)
            #expect(own.json["full"] as? Bool == true && own.json["linked"] as? Bool == false)
            #expect(Self.cards(own)[12]?.views == 3)

            // One person links both: each sees the sum of views and the latest "known".
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "pop-sd", app: "pop", name: "Pride of Prairie")
            let person = try await people.register(People.Registration(orgSlug: "pop-sd", email: "learner@example.com", firstName: "L", lastName: "S",
                                                                       phone: nil, password: "Learning2026"), policy: People.TokenPolicy(app: "pop", signUpRole: "learner"))
            for install in [Self.phone, Self.tablet] {
                let linked = try await app.request("/api/pop/installs/\(install)/link", method: .post, key: key,
                                                   headers: [.authorization: "Bearer \(person.accessToken)"])
                #expect(linked.status == .ok && linked.json["linked"] as? Bool == true, "\(linked.text)")
            }
            let merged = try await app.request("/api/pop/installs/\(Self.phone)/progress", key: key)
            #expect(merged.json["full"] as? Bool == true && merged.json["linked"] as? Bool == true)
            #expect(Self.cards(merged)[12]?.views == 5)
            #expect(Self.cards(merged)[12]?.known == false, "the tablet's unmark is later on the corrected clocks")
            #expect(Self.cards(merged)[13]?.views == 1)

            // Since the cursor, only what changed.
            let cursor = try #require(merged.json["cursor"] as? Int, "\(merged.status): \(merged.text)")
            _ = try await app.request("/api/pop/installs/\(Self.tablet)/changes", method: .post, key: key,
                                      json: Self.batch(sentAt: slow, [Self.card(14, views: 1, known: true, at: slow, deck: "sd-civics")]))
            let since = try await app.request("/api/pop/installs/\(Self.phone)/progress?since=\(cursor)", key: key)
            #expect(since.json["full"] as? Bool == false)
            #expect((since.json["cards"] as? [[String: Any]])?.map { $0["questionId"] as? Int } == [14], "\(since.text)")

            // Unlinked by its person, the phone keeps its own progress.
            #expect(try await app.request("/api/pop/installs/\(Self.phone)/link", method: .delete, key: key,
                                          headers: [.authorization: "Bearer \(person.accessToken)"]).status == .ok)
            let alone = try await app.request("/api/pop/installs/\(Self.phone)/progress", key: key)
            #expect(alone.json["linked"] as? Bool == false && Self.cards(alone)[12]?.views == 3 && Self.cards(alone)[14] == nil)
        }
    }

    /// Hole 1 of the authorization review: any signed-in person of any app could link someone
    /// else's install (and take its progress), and the app key alone unlinked anyone's.
    @Test func anInstallLinkedToSomeoneStaysTheirs() async throws {
        try await apps.withTestApp(["ingest"], configure: Self.decks) { app in
            let key = try await app.key(app: "pop", [PoPRoutes.readScope, PoPRoutes.writeScope])
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "pop-sd", app: "pop", name: "Pride of Prairie")
            try await people.createOrganisationPatiently(slug: "walkers", app: "offleash", name: "Walkers")
            func signUp(_ email: String, org: String = "pop-sd", app name: String = "pop") async throws -> String {
                try await people.register(People.Registration(orgSlug: org, email: email, firstName: "L", lastName: "S", phone: nil, password: "Learning2026"),
                                          policy: People.TokenPolicy(app: name, signUpRole: name == "pop" ? "learner" : "customer")).accessToken
            }
            let (owner, attacker) = (try await signUp("owner@example.com"), try await signUp("attacker@example.com"))
            let customer = try await signUp("walker@example.com", org: "walkers", app: "offleash")
            let link = "/api/pop/installs/\(Self.phone)/link"
            func call(_ method: HTTPRequest.Method, _ token: String?) async throws -> HTTPResponse.Status {
                try await app.request(link, method: method, key: key, headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:]).status
            }
            #expect(try await call(.post, owner) == .ok)
            #expect(try await call(.post, owner) == .ok, "linking again to the same person is fine")
            #expect(try await call(.post, attacker) == .conflict, "the first link wins")
            #expect(try await call(.post, customer) == .unauthorized, "another app's token")
            #expect(try await call(.delete, nil) == .unauthorized, "the app key alone unlinks nothing")
            #expect(try await call(.delete, attacker) == .notFound)
            #expect(try await call(.delete, customer) == .unauthorized)
            let view = try await app.request("/api/pop/installs/\(Self.phone)/progress", key: key)
            #expect(view.json["linked"] as? Bool == true)
            #expect(try await call(.delete, owner) == .ok)
            #expect(try await call(.post, attacker) == .ok, "unlinked by its person, it may be linked anew")
        }
    }

    @Test func hostileBatchesAreClearErrorsOrRefusedChangesAndStoreNothingBad() async throws {
        try await apps.withTestApp(["ingest"], configure: Self.decks) { app in
            let key = try await app.key(app: "pop", [PoPRoutes.readScope, PoPRoutes.writeScope])
            let readOnly = try await app.key(app: "pop", [PoPRoutes.readScope])
            let path = "/api/pop/installs/\(Self.phone)/changes"
            let now = Timestamp.string(Date())
            let good = Self.batch(sentAt: now, [Self.card(1, views: 1, known: false, at: now)])
            #expect(try await app.request(path, method: .post, json: good).status == .unauthorized)
            #expect(try await app.request(path, method: .post, key: readOnly, json: good).status == .forbidden)
            #expect(try await app.request(path, method: .post, key: key, json: "{not json").status == .badRequest)
            #expect(try await app.request(path, method: .post, key: key, json: #"{"sentAt": "yesterday", "changes": []}"#).status == .unprocessableContent)
            #expect(try await app.request("/api/pop/installs/not-an-install/changes", method: .post, key: key, json: good).status == .unprocessableContent)
            let tooMany = Self.batch(sentAt: now, (0...500).map { Self.card(1, views: $0, known: false, at: now) })
            #expect(try await app.request(path, method: .post, key: key, json: tooMany).status == .unprocessableContent)
            #expect(try await app.request(path, method: .post, key: key, json: #"{"sentAt": "\#(now)", "changes": [{"mutationId": "x"}], "x": null}"#).status == .badRequest)

            // One bad change among good ones: the good ones are stored, the bad one says why.
            let mixed = Self.batch(sentAt: now, [Self.card(1, views: 2, known: true, at: now),
                                                 Self.card(101, views: 1, known: true, at: now),
                                                 Self.card(2, views: 1, known: true, at: now, deck: "atlantis"),
                                                 Self.card(3, views: 1, known: true, at: "1999-01-01T00:00:00Z"),
                                                 #"{"mutationId": "\#(UUID().uuidString)", "card": {"deck": "us-civics", "questionId": 4, "timesViewed": 1, "isMarkedKnown": true, "changedAt": "\#(now)"}, "unbookmark": {"bookmarkIds": ["\#(UUID().uuidString)"]}}"#])
            let answer = try await app.request(path, method: .post, key: key, json: mixed)
            #expect(answer.status == .ok, "\(answer.text)")
            let statuses = (answer.json["results"] as? [[String: Any]])?.map { $0["status"] as? String } ?? []
            #expect(statuses == ["applied", "refused", "refused", "refused", "refused"], "\(answer.text)")
            let stored = try await app.log.read(filter: "events.pop.install.*.synced.v1").compactMap { $0.payload as? ProgressSynced }
            #expect(stored.flatMap(\.changes).count == 1)
            #expect(try await app.request("/api/pop/installs/\(Self.phone)/progress?since=abc", key: key).status == .unprocessableContent)
        }
    }

    static func cards(_ response: TestResponse) -> [Int: (views: Int, known: Bool)] {
        var cards: [Int: (views: Int, known: Bool)] = [:]
        for card in response.json["cards"] as? [[String: Any]] ?? [] {
            if let id = card["questionId"] as? Int { cards[id] = (card["timesViewed"] as? Int ?? -1, card["isMarkedKnown"] as? Bool ?? false) }
        }
        return cards
    }
}
