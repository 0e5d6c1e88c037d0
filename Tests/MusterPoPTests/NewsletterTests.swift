import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterPoP
import MusterRuntime
import MusterStandIns
import MusterTesting
import Testing

@Suite("PoP newsletter: signups once per id and address, unsubscribing erases, the organisers' CSV is safe to open")
struct NewsletterTests {
    static let path = "/api/pop/newsletter/signups"

    static func signup(_ id: String = UUID().uuidString, name: String, email: String, date: String = Timestamp.string(Date())) -> String {
        let json = try? JSONSerialization.data(withJSONObject: ["id": id, "name": name, "email": email, "signupDate": date])
        return String(decoding: json ?? Data(), as: UTF8.self)
    }

    /// The CSV as Python's `csv` module reads it: a JSON list of rows.
    static func pythonRows(_ csv: String) async throws -> [[String]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("newsletter-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = "import csv, json, sys\nwith open(sys.argv[1], newline='', encoding='utf-8') as f: print(json.dumps(list(csv.reader(f))))"
        let result = try await Repository.run(["python3", "-c", script, file.path])
        try #require(result.status == 0, "python could not read the CSV: \(result.error)")
        return try JSONDecoder().decode([[String]].self, from: Data(result.output.utf8))
    }

    @Test func signupsAreIdempotentDeduplicatedAndExportedSafely() async throws {
        try await apps.withTestApp(["ingest"], configure: ProgressSyncTests.decks) { app in
            let key = try await app.key(app: "pop", [PoPRoutes.writeScope])
            let exporter = try await app.key(app: "pop", [NewsletterRoutes.exportScope])

            let id = UUID().uuidString
            let first = try await app.request(Self.path, method: .post, key: key, json: Self.signup(id, name: "Dana Prairie", email: "dana@example.com"))
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json["status"] as? String == "subscribed")
            let link = try #require(first.json["unsubscribeUrl"] as? String, "\(first.status): \(first.text)")
            #expect(link.contains("/pop/unsubscribe?token="))
            let retry = try await app.request(Self.path, method: .post, key: key, json: Self.signup(id, name: "Dana Prairie", email: "dana@example.com"))
            #expect(retry.status == .ok && retry.json["status"] as? String == "subscribed" && retry.json["unsubscribeUrl"] as? String == link)
            // The same address, written differently, from another install: one subscription.
            let dup = try await app.request(Self.path, method: .post, key: key, json: Self.signup(name: "D. Prairie", email: "  DANA@Example.com "))
            #expect(dup.status == .ok && dup.json["status"] as? String == "duplicate" && dup.json["unsubscribeUrl"] == nil, "\(dup.text)")

            // Names a spreadsheet would run, and a quote and a comma.
            let hostile = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+1", "-2+3", "@SUM(A1:A2)", "\tTabbed", "Quote \"Q\", Comma"]
            for (i, name) in hostile.enumerated() {
                let r = try await app.request(Self.path, method: .post, key: key, json: Self.signup(name: name, email: "f\(i)@example.com"))
                #expect(r.status == .created, "\(r.text)")
            }
            _ = try await app.request(Self.path, method: .post, key: key, json: Self.signup(name: "Dash", email: "-dash@example.com"))

            // Refused, naming the field, storing nothing.
            let before = try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq
            for (body, field) in [(Self.signup(name: "X", email: "not-an-email"), "email"), (Self.signup("nope", name: "X", email: "x@example.com"), "id"),
                                  (Self.signup(name: "  ", email: "x@example.com"), "name"),
                                  (Self.signup(name: "X", email: "x@example.com", date: "2999-01-01T00:00:00Z"), "signupDate"),
                                  (Self.signup(name: "X", email: "x@example.com", date: "soon"), "signupDate")] {
                let r = try await app.request(Self.path, method: .post, key: key, json: body)
                #expect(r.status == .unprocessableContent && r.errorMessage.contains(field), "\(field): \(r.text)")
            }
            #expect(try await app.request(Self.path, method: .post, key: key, json: "[1,2").status == .badRequest)
            #expect(try await app.request(Self.path, method: .post, key: exporter, json: Self.signup(name: "X", email: "y@example.com")).status == .forbidden)
            #expect(try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq == before)

            // The export: a key with export:newsletter, opened as Python's csv module reads it.
            #expect(try await app.request("/api/pop/newsletter.csv").status == .unauthorized)
            #expect(try await app.request("/api/pop/newsletter.csv", key: key).status == .forbidden)
            #expect(try await app.request("/api/pop/newsletter.csv?org=atlantis", key: exporter).status == .unprocessableContent)
            let export = try await app.request("/api/pop/newsletter.csv?org=pop-sd", key: exporter)
            #expect(export.status == .ok && export.headers[.contentType]?.hasPrefix("text/csv") == true)
            let rows = try await Self.pythonRows(export.text)
            #expect(rows.first == ["name", "email", "signup_date", "consent_at", "signup_id", "unsubscribe_url", "confirmed"])
            #expect(rows.count == 1 + 1 + hostile.count + 1, "\(rows)")
            for row in rows.dropFirst() {
                for cell in row { #expect(!"=+-@\t\r".contains(cell.first ?? " "), "a cell a spreadsheet would run: \(cell)") }
            }
            #expect(rows.contains { $0[0] == "'=HYPERLINK(\"http://evil.example\",\"x\")" })
            #expect(rows.contains { $0[0] == "Quote \"Q\", Comma" })
            #expect(rows.contains { $0[1] == "'-dash@example.com" })
            #expect(rows[1][0] == "Dana Prairie" && rows[1][1] == "dana@example.com" && rows[1][4] == id.lowercased())

            // An organiser of the organisation may export; a customer of it may not.
            let people = People.shared(in: app.env.environment)
            _ = try await people.createOrganisationPatiently(slug: "pop-sd", app: "pop", name: "People Over Party")
            _ = try await people.addPerson(People.Registration(orgSlug: "pop-sd", email: "org@example.com", firstName: "O", lastName: "R",
                                                               phone: nil, password: "Organise2026", role: "organiser"))
            let organiser = try await people.login(orgSlug: "pop-sd", email: "org@example.com", password: "Organise2026", address: "test",
                                                   policy: People.TokenPolicy(app: "pop"))
            let byOrganiser = try await app.request("/api/pop/newsletter.csv", headers: [.authorization: "Bearer \(organiser.accessToken)"])
            #expect(byOrganiser.status == .ok && byOrganiser.text == export.text)
            let learner = try await people.register(People.Registration(orgSlug: "pop-sd", email: "learner@example.com", firstName: "L", lastName: "R",
                                                                        phone: nil, password: "Learning2026"), policy: People.TokenPolicy(app: "pop", signUpRole: "learner"))
            #expect(try await app.request("/api/pop/newsletter.csv", headers: [.authorization: "Bearer \(learner.accessToken)"]).status == .forbidden)
        }
    }

    /// Double opt-in: a signup is mailed a confirmation link; its GET shows a button and changes
    /// nothing, its POST confirms; the export says which signups are confirmed; a forged or cut link
    /// confirms nothing, and an unsubscribed address cannot be confirmed back.
    @Test func aSignupIsConfirmedByTheLinkMailedToIt() async throws {
        let mail = SMSStandIn.Recorder()
        try await Application(router: SMSStandIn.router(recorder: mail)).test(.live) { standIn in
            let port = try #require(standIn.port)
            try await apps.withTestApp(["ingest"], configure: {
                ProgressSyncTests.decks(&$0)
                $0[InvitationSettings.self].mailURL = "http://127.0.0.1:\(port)"
                $0[InvitationSettings.self].mailKey = "SG.test"
            }) { app in
                let key = try await app.key(app: "pop", [PoPRoutes.writeScope])
                let exporter = try await app.key(app: "pop", [NewsletterRoutes.exportScope])
                for (name, email) in [("Cora Confirms", "cora@example.com"), ("Nell Never", "nell@example.com")] {
                    #expect(try await app.request(Self.path, method: .post, key: key, json: Self.signup(name: name, email: email)).status == .created)
                }
                var letters: [SMSStandIn.Message] = []
                try await eventually("both are mailed a confirmation") {
                    letters = await mail.messages.filter { $0.subject?.hasPrefix("Confirm your People Over Party newsletter") == true }
                    return letters.count == 2
                }
                let cora = try #require(letters.first { $0.to == "cora@example.com" })
                #expect(cora.headers?["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click")
                let link = try #require(cora.body.split(whereSeparator: \.isWhitespace).first { $0.contains("/pop/newsletter/confirm?token=") })
                let path = String(try #require(link.range(of: "/pop/").map { link[$0.lowerBound...] })).trimmingCharacters(in: .whitespacesAndNewlines)
                func confirmedColumn() async throws -> [String: String] {
                    let rows = try await Self.pythonRows(try await app.request("/api/pop/newsletter.csv?org=pop-sd", key: exporter).text)
                    return Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[1], $0[6]) })
                }
                #expect(try await app.request(path).status == .ok)
                #expect(try await confirmedColumn() == ["cora@example.com": "no", "nell@example.com": "no"], "a GET confirms nothing")
                #expect(try await app.request(path.replacingOccurrences(of: "token=", with: "token=f"), method: .post).status == .unprocessableContent)
                #expect(try await app.request(String(path.dropLast(4)), method: .post).status == .unprocessableContent)
                #expect(try await app.request(path, method: .post).status == .ok)
                #expect(try await app.request(path, method: .post).status == .ok, "twice is harmless")
                #expect(try await confirmedColumn() == ["cora@example.com": "yes", "nell@example.com": "no"])
                let confirmations = try await app.log.read(filter: "events.pop.subscriber.*.confirmed.v1")
                #expect(confirmations.count == 1)

                // Unsubscribed, the confirmation link confirms nothing back.
                let nell = try #require(letters.first { $0.to == "nell@example.com" })
                let unsubscribe = try #require(nell.headers?["List-Unsubscribe"]?.trimmingCharacters(in: CharacterSet(charactersIn: "<>")))
                let unsubscribePath = String(try #require(unsubscribe.range(of: "/pop/").map { unsubscribe[$0.lowerBound...] }))
                #expect(try await app.request(unsubscribePath, method: .post).status == .ok)
                let nellLink = try #require(nell.body.split(whereSeparator: \.isWhitespace).first { $0.contains("/pop/newsletter/confirm?token=") })
                let nellPath = String(try #require(nellLink.range(of: "/pop/").map { nellLink[$0.lowerBound...] })).trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(try await app.request(nellPath, method: .post).status == .notFound)
            }
        }
    }

    @Test func unsubscribingErasesTheNameAndEmailAndFreesTheAddress() async throws {
        try await apps.withTestApp(["ingest"], configure: ProgressSyncTests.decks) { app in
            let key = try await app.key(app: "pop", [PoPRoutes.writeScope])
            let exporter = try await app.key(app: "pop", [NewsletterRoutes.exportScope])
            let signed = try await app.request(Self.path, method: .post, key: key, json: Self.signup(name: "Erin Erasable", email: "erin.erase@example.com"))
            let link = try #require(signed.json["unsubscribeUrl"] as? String, "\(signed.status): \(signed.text)")
            let target = String(try #require(link.range(of: "/pop/unsubscribe").map { link[$0.lowerBound...] }))
            let token = String(target.split(separator: "=", maxSplits: 1)[1])
            let subscriberId = String(token.prefix(36))
            let keyBytes = try #require(try await KeyValue.open(app.log.jetStream, bucket: PersonalDataVault.bucketName, erasable: true).get(subscriberId)).value

            // A GET (a mail scanner following the link) changes nothing.
            let page = try await app.request(target)
            #expect(page.status == .ok && page.text.contains("<form method=\"post\""))
            #expect(try await app.request("/api/pop/newsletter.csv", key: exporter).text.contains("erin.erase"))
            // A forged or cut link is refused.
            let forged = "/pop/unsubscribe?token=\(subscriberId).\(String(repeating: "0", count: 64))"
            #expect(try await app.request(forged, method: .post).status == .unprocessableContent)
            #expect(try await app.request("/pop/unsubscribe?token=abc", method: .post).status == .unprocessableContent)

            let done = try await app.request(target, method: .post)
            #expect(done.status == .ok && done.text.contains("unsubscribed"), "\(done.text)")
            #expect(try await app.request(target, method: .post).status == .ok, "a second click is harmless")
            #expect(!(try await app.request("/api/pop/newsletter.csv", key: exporter).text.contains("erin")))

            // No stored byte holds the name or email, nor the key on the server's disk.
            let js = app.log.jetStream
            for stream in ["EVENTS", "DLQ", "KV_muster_person_keys"] {
                guard let info = try? await js.streamInfo(stream), info.state.messages > 0 else { continue }
                for sequence in info.state.firstSeq...info.state.lastSeq {
                    guard let message = try? await js.getMessage(stream: stream, sequence: sequence) else { continue }
                    let text = String(decoding: message.payload, as: UTF8.self).lowercased()
                    #expect(!text.contains("erin"), "\(stream) #\(sequence) holds the name or email")
                }
            }
            var found: [String] = []
            for case let file as URL in FileManager.default.enumerator(at: app.env.server.directory, includingPropertiesForKeys: nil)
                ?? FileManager.DirectoryEnumerator() {
                guard let bytes = try? Data(contentsOf: file) else { continue }
                if bytes.range(of: keyBytes) != nil || bytes.range(of: Data("erin.erase".utf8)) != nil { found.append(file.path) }
            }
            #expect(found.isEmpty, "the subscriber's key or email is still on the server's disk: \(found)")

            // The address may sign up again: a new subscription.
            let again = try await app.request(Self.path, method: .post, key: key, json: Self.signup(name: "Erin Again", email: "erin.erase@example.com"))
            #expect(again.status == .created && again.json["unsubscribeUrl"] as? String != link, "\(again.text)")
        }
    }
}
