import Foundation
import FoundationNetworking
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterPlatform
import MusterRuntime
import MusterServices
import MusterTesting
import Testing

/// Who may call what, generated from `schemas/openapi.yaml`: every operation declares its rule
/// (`x-access`; one that does not fails `scripts/openapi_routes.py`, and `OpenAPITests` fails a
/// served route the description lacks), and this test calls every operation of a live `serve all`
/// as every kind of caller the rule speaks of: nobody, a revoked key, another app's key, a key
/// without the scope, a token of another app, a lower role, and the owner. Each must get the
/// class of answer the rule gives: 401, 403 (or 404), or through to the route (any answer but
/// 401 and 403: with placeholder ids and bodies, often a 404 or 422). The second test makes a thing
/// of each kind an owner has (a customer's location, a person's device, a scan, a linked install,
/// an app's push) and calls every operation on it as another person of the same organisation,
/// a person of another organisation, and the app's key: each is 404 (or what the rule says).
@Suite("Authorization matrix: every operation, every kind of caller")
struct AuthorizationMatrixTests {
    struct Operation: Decodable { var method: String; var path: String; var access: String }

    /// One request the matrix makes, and what it must get.
    struct Case {
        enum Expect { case refused401, refused403or404, through }
        var caller: String
        var key: String?
        var token: String?
        var expect: Expect
    }

    /// A key of each app with every scope it may carry, a bare one, a revoked one; a person of
    /// each app in each role.
    struct Callers {
        var keys: [String: String] = [:]
        var bare: [String: String] = [:]
        var revoked: [String: String] = [:]
        var people: [String: [String: String]] = [:] // app → role → token
    }

    static let keyApps = ["opl", "pop", "shieldai", "field", "offleash", "platform"]
    static let roles = ["offleash": ["customer", "walker", "admin"], "field": ["worker", "manager"], "pop": ["organiser"],
                        "opl": ["moderator"], "shieldai": ["customer"]]

    static func callers(_ env: TestLog) async throws -> Callers {
        var callers = Callers()
        let scopes = MusterProcess.apps.keyScopes
        for app in keyApps {
            let (key, issued) = issuedKey(app: app, scopes: scopes.allowed(forKeyOf: app).sorted())
            let (bare, bareIssued) = issuedKey(app: app, scopes: ["unused:scope"])
            let (revoked, revokedIssued) = issuedKey(app: app, scopes: scopes.allowed(forKeyOf: app).sorted())
            for event in [issued, bareIssued, revokedIssued] { try await env.log.append(event) }
            let last = try await env.log.append(APIKeyRevoked(keyId: revokedIssued.keyId, reason: "matrix", revokedBy: "test")).sequence
            try await env.settled("keys", at: last)
            (callers.keys[app], callers.bare[app], callers.revoked[app]) = (key, bare, revoked)
        }
        let people = People.shared(in: env.environment)
        for (app, roles) in roles {
            let slug = "matrix-\(app)"
            try await people.createOrganisationPatiently(slug: slug, app: app, name: "Matrix \(app)")
            for role in roles {
                let email = "\(role)@\(app).matrix.example"
                _ = try await people.addPerson(People.Registration(orgSlug: slug, email: email, firstName: role, lastName: "M",
                                                                   phone: nil, password: "Matrix-2026", role: role))
            }
        }
        callers.people = try await signIn(env)
        return callers
    }

    /// A fresh token for each person of `callers` (a sign-out ends the one it was asked with).
    static func signIn(_ env: TestLog) async throws -> [String: [String: String]] {
        let people = People.shared(in: env.environment)
        var tokens: [String: [String: String]] = [:]
        for (app, roles) in roles {
            for role in roles {
                let signedIn = try await people.login(orgSlug: "matrix-\(app)", email: "\(role)@\(app).matrix.example", password: "Matrix-2026",
                                                      address: "matrix", policy: People.TokenPolicy(app: app))
                tokens[app, default: [:]][role] = signedIn.accessToken
            }
        }
        return tokens
    }

    /// The cases one rule gives (`x-access`, as `scripts/openapi_routes.py` checks its form).
    static func cases(_ access: String, _ callers: Callers) -> [Case] {
        let parts = access.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let kind = parts[0], app = parts.count > 1 ? parts[1] : "", rest = parts.count > 2 ? parts[2] : ""
        let other = app == "opl" ? "pop" : "opl" // an app that is not this one
        let anyApp = app == "*" ? "shieldai" : app
        var cases: [Case] = []
        func key(_ caller: String, _ key: String?, _ token: String? = nil, _ expect: Case.Expect) {
            cases.append(Case(caller: caller, key: key, token: token, expect: expect))
        }
        let ownToken = callers.people[anyApp]?.values.sorted().first
        let otherToken = callers.people[app == "offleash" ? "field" : "offleash"]?["walker"] ?? callers.people["field"]?["worker"]
        switch kind {
        case "public":
            break
        case "page":
            key("nobody", nil, nil, .refused401)
        case "key":
            key("nobody", nil, nil, .refused401)
            key("a revoked key", callers.revoked[anyApp], nil, .refused401)
            if app != "*" { key("another app's key", callers.keys[other], nil, .refused401) }
            if !rest.isEmpty { key("a key without the scope", callers.bare[anyApp], nil, .refused403or404) }
            key("a person's token alone", nil, ownToken, .refused401)
            key("the owner's key", callers.keys[anyApp], nil, .through)
        case "person":
            let allowed = rest == "*" ? Set(roles[app] ?? []) : Set(rest.split(separator: ",").map(String.init))
            key("nobody", nil, nil, .refused401)
            key("a token of another app", nil, otherToken, .refused401)
            key("the app's key alone", callers.keys[app], nil, .refused401)
            for (role, token) in (callers.people[app] ?? [:]).sorted(by: { $0.key < $1.key }) {
                key("a \(role)", nil, token, allowed.contains(role) ? .through : .refused403or404)
            }
        case "key-or-person":
            key("nobody", nil, nil, .refused401)
            key("a revoked key", callers.revoked[anyApp], nil, .refused401)
            if app != "*" {
                key("another app's key", callers.keys[other], nil, .refused401)
                key("a token of another app", nil, otherToken, .refused401)
            }
            key("a key without the scope", callers.bare[anyApp], nil, .refused403or404)
            key("the owner's key", callers.keys[anyApp], nil, .through)
            if let ownToken { key("the owner's token", nil, ownToken, .through) }
        case "key-and-person":
            key("nobody", nil, nil, .refused401)
            key("the key alone", callers.keys[app], nil, .refused401)
            key("the key and a token of another app", callers.keys[app], otherToken, .refused401)
            key("another app's key and the owner's token", callers.keys[other], ownToken, .refused401)
            key("the owner's key and token", callers.keys[app], ownToken, .through)
        default:
            Issue.record("no cases for x-access \(access)")
        }
        return cases
    }

    /// A stand-in for each path parameter, of the shape the route expects.
    static func concrete(_ path: String) -> String {
        let values = ["deviceId": "dev_" + String(repeating: "0", count: 32), "digest": String(repeating: "0", count: 64),
                      "decision": "approve", "scope": "devices:register", "fingerprint": String(repeating: "0", count: 16)]
        var result = path
        while let open = result.firstIndex(of: "{"), let close = result[open...].firstIndex(of: "}") {
            let name = String(result[result.index(after: open)..<close])
            result.replaceSubrange(open...close, with: values[name] ?? "00000000-0000-4000-8000-000000000000")
        }
        return result
    }

    @Test func everyOperationAnswersEveryKindOfCallerAsItsRuleSays() async throws {
        let listed = try await Repository.run(["python3", "scripts/openapi_routes.py", "schemas/openapi.yaml"], environment: Repository.pythonEnvironment)
        try #require(listed.status == 0, "openapi check failed: \(listed.error)")
        // Forgetting oneself (refused here: no password), signing out everywhere else and signing out end the
        // callers' sessions: those go last, in that order.
        let operations = try JSONDecoder().decode([Operation].self, from: Data(listed.output.utf8)).sorted { a, b in
            func rank(_ o: Operation) -> Int {
                if o.path.hasSuffix("/auth/logout") { return 3 }
                if o.path.hasSuffix("/auth/sessions") && o.method == "delete" { return 2 }
                return o.path == "/users/me" && o.method == "delete" ? 1 : 0
            }
            return rank(a) < rank(b)
        }
        try await apps.withLiveServer(["all"], configure: {
            $0.readRatePerMinute = 0
            $0.writeRatePerMinute = 0
        }) { env, port in
            var callers = try await Self.callers(env)
            var failures: [String] = [], counts: [Case.Expect: Int] = [:], requests = 0
            for operation in operations {
                // Each sign-out ends the session it is asked with: it gets sessions of its own.
                if operation.path.hasSuffix("/auth/logout") { callers.people = try await Self.signIn(env) }
                for check in Self.cases(operation.access, callers) {
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(Self.concrete(operation.path))")!)
                    request.httpMethod = operation.method.uppercased()
                    if let key = check.key { request.setValue(key, forHTTPHeaderField: "X-API-Key") }
                    if let token = check.token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                    if ["POST", "PUT", "PATCH"].contains(request.httpMethod ?? "") {
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        request.httpBody = Data("{}".utf8)
                    }
                    let status = ((try? await URLSession.shared.data(for: request))?.1 as? HTTPURLResponse)?.statusCode ?? 0
                    requests += 1
                    counts[check.expect, default: 0] += 1
                    let ok = switch check.expect {
                    case .refused401: status == 401
                    case .refused403or404: status == 403 || status == 404
                    case .through: status != 401 && status != 403 && status != 0 && status < 500
                    }
                    if !ok { failures.append("\(operation.method.uppercased()) \(operation.path) [\(operation.access)] as \(check.caller): \(status), expected \(check.expect)") }
                }
            }
            print("authorization matrix: \(operations.count) operations, \(requests) requests (\(counts[.refused401] ?? 0) must be 401, "
                  + "\(counts[.refused403or404] ?? 0) 403 or 404, \(counts[.through] ?? 0) through), \(failures.count) wrong")
            #expect(failures.isEmpty, "\(failures.count) answers broke their rule:\n\(failures.joined(separator: "\n"))")
        }
    }

    /// One call as someone: status and body.
    static func call(_ port: Int, _ method: String, _ path: String, key: String? = nil, token: String? = nil,
                     json: String? = nil) async -> (status: Int, json: [String: Any], text: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let key { request.setValue(key, forHTTPHeaderField: "X-API-Key") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        guard let (data, response) = try? await URLSession.shared.data(for: request) else { return (0, [:], "") }
        let text = String(decoding: data, as: UTF8.self)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:], text)
    }

    @Test func everyOwnedThingOfAnotherOwnerIsNotFound() async throws {
        try await apps.withLiveServer(["all"], configure: { $0.readRatePerMinute = 0; $0.writeRatePerMinute = 0 }) { env, port in
            let people = People.shared(in: env.environment)
            func person(_ app: String, _ org: String, _ name: String, role: String = "customer") async throws -> String {
                if await people.runner.read({ $0.orgBySlug[org] }) == nil { try await people.createOrganisationPatiently(slug: org, app: app, name: org) }
                let email = "\(name)@\(org).example"
                _ = try await people.addPerson(People.Registration(orgSlug: org, email: email, firstName: name, lastName: "O", phone: nil,
                                                                   password: "Owner-2026", role: role))
                return try await people.login(orgSlug: org, email: email, password: "Owner-2026", address: "matrix",
                                              policy: People.TokenPolicy(app: app)).accessToken
            }
            let scopes = MusterProcess.apps.keyScopes
            func key(_ app: String) async throws -> String {
                let (key, issued) = issuedKey(app: app, scopes: scopes.allowed(forKeyOf: app).sorted())
                try await env.settled("keys", at: try await env.log.append(issued).sequence)
                return key
            }
            var wrong: [String] = []
            func expect(_ what: String, _ answer: (status: Int, json: [String: Any], text: String), _ statuses: Set<Int>) {
                if !statuses.contains(answer.status) { wrong.append("\(what): \(answer.status) \(answer.text.prefix(160))") }
            }

            // OFFLEASH: a customer's location.
            let (ana, ben) = (try await person("offleash", "own-a", "ana"), try await person("offleash", "own-a", "ben"))
            let cleo = try await person("offleash", "own-b", "cleo")
            let address = #"{"name": "Home", "address": "1 Main St", "city": "Rapid City", "state": "SD", "zip_code": "57701", "latitude": 44.08, "longitude": -103.23}"#
            let location = await Self.call(port, "POST", "/locations", token: ana, json: address)
            let locationId = try #require(location.json["id"] as? String, "\(location.text)")
            for (who, token) in [("another customer of the organisation", ben), ("a customer of another organisation", cleo)] {
                expect("PUT /locations/{id} as \(who)", await Self.call(port, "PUT", "/locations/\(locationId)", token: token, json: address), [404])
                expect("PUT /locations/{id}/default as \(who)", await Self.call(port, "PUT", "/locations/\(locationId)/default", token: token), [404])
                expect("DELETE /locations/{id} as \(who)", await Self.call(port, "DELETE", "/locations/\(locationId)", token: token), [404])
                let theirs = await Self.call(port, "GET", "/locations", token: token)
                if theirs.text.contains(locationId) { wrong.append("GET /locations as \(who) lists another's location") }
            }
            expect("DELETE /locations/{id} as its customer", await Self.call(port, "DELETE", "/locations/\(locationId)", token: ana), [200, 204])

            // OFFLEASH: a customer's pet.
            let petBody = #"{"name": "Biscuit", "species": "dog", "gender": "female", "is_spayed_neutered": true, "vaccination_status": "up_to_date"}"#
            let pet = await Self.call(port, "POST", "/pets", token: ana, json: petBody)
            let petId = try #require(pet.json["id"] as? String, "\(pet.text)")
            for (who, token) in [("another customer of the organisation", ben), ("a customer of another organisation", cleo)] {
                expect("GET /pets/{id} as \(who)", await Self.call(port, "GET", "/pets/\(petId)", token: token), [404])
                expect("PUT /pets/{id} as \(who)", await Self.call(port, "PUT", "/pets/\(petId)", token: token, json: petBody), [404])
                expect("DELETE /pets/{id} as \(who)", await Self.call(port, "DELETE", "/pets/\(petId)", token: token), [404])
                let theirs = await Self.call(port, "GET", "/pets", token: token)
                if theirs.text.contains(petId) { wrong.append("GET /pets as \(who) lists another's pet") }
            }
            expect("DELETE /pets/{id} as its customer", await Self.call(port, "DELETE", "/pets/\(petId)", token: ana), [204])

            // ShieldAI: a person's device and scan.
            let (sam, kim) = (try await person("shieldai", "own-s", "sam"), try await person("shieldai", "own-s", "kim"))
            let lee = try await person("shieldai", "own-t", "lee")
            let shieldKey = try await key("shieldai")
            let registration = #"{"token": "\#(String(repeating: "5a", count: 32))", "platform": "ios", "bundleId": "com.kordant.shieldai"}"#
            let device = await Self.call(port, "POST", "/api/devices", token: sam, json: registration)
            let deviceId = try #require(device.json["deviceId"] as? String, "\(device.text)")
            for (who, key, token) in [("another person of the organisation", nil, kim), ("a person of another organisation", nil, lee),
                                      ("the app's key", shieldKey, nil)] as [(String, String?, String?)] {
                expect("GET /api/devices/{id} as \(who)", await Self.call(port, "GET", "/api/devices/\(deviceId)", key: key, token: token), [404])
                expect("PATCH /api/devices/{id} as \(who)", await Self.call(port, "PATCH", "/api/devices/\(deviceId)", key: key, token: token,
                                                                             json: #"{"topics": ["taken"]}"#), [404])
                expect("DELETE /api/devices/{id} as \(who)", await Self.call(port, "DELETE", "/api/devices/\(deviceId)", key: key, token: token), [404])
            }
            expect("GET /api/devices/{id} as its person", await Self.call(port, "GET", "/api/devices/\(deviceId)", token: sam), [200])
            let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
            let scan = await Self.call(port, "POST", "/api/shieldai/documents", token: sam,
                                       json: #"{"kind": "deed", "ocrText": "PARCEL 7", "contentType": "image/png", "image": "\#(png)"}"#)
            let documentId = try #require(scan.json["documentId"] as? String, "\(scan.text)")
            for (who, token) in [("another person of the organisation", kim), ("a person of another organisation", lee)] {
                expect("DELETE /api/shieldai/documents/{id} as \(who)", await Self.call(port, "DELETE", "/api/shieldai/documents/\(documentId)", token: token), [404])
                let listed = await Self.call(port, "GET", "/api/shieldai/documents", token: token)
                if listed.text.contains(documentId) || listed.text.contains("PARCEL 7") { wrong.append("GET /api/shieldai/documents as \(who) shows another's scan") }
            }

            // PoP: an install linked to its person.
            let popKey = try await key("pop")
            let (liv, max) = (try await person("pop", "own-p", "liv", role: "organiser"), try await person("pop", "own-p", "max", role: "organiser"))
            let install = "/api/pop/installs/0b0b0b0b-0000-4000-8000-00000000abcd/link"
            expect("POST …/link as its person", await Self.call(port, "POST", install, key: popKey, token: liv), [200])
            expect("POST …/link as another person (the first link wins)", await Self.call(port, "POST", install, key: popKey, token: max), [409])
            expect("DELETE …/link as another person", await Self.call(port, "DELETE", install, key: popKey, token: max), [404])

            // Pushes: an app's push, asked after with another app's key.
            let sent = await Self.call(port, "POST", "/api/push", key: shieldKey, json: #"{"audience": {"everyone": true}, "title": "t", "body": "b"}"#)
            let pushId = try #require(sent.json["pushId"] as? String, "\(sent.text)")
            expect("GET /api/push/{id} with another app's key", await Self.call(port, "GET", "/api/push/\(pushId)", key: try await key("opl")), [404])
            expect("GET /api/push/{id} with its app's key", await Self.call(port, "GET", "/api/push/\(pushId)", key: shieldKey), [200])

            print("ownership matrix: \(wrong.count) wrong")
            #expect(wrong.isEmpty, "another owner's things answered:\n\(wrong.joined(separator: "\n"))")
        }
    }
}
