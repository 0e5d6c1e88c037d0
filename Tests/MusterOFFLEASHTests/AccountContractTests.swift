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

@Suite("OFFLEASH accounts over HTTP, as the app speaks them")
struct AccountContractTests {
    static let password = "Walkies2026"

    static func register(_ app: TestApp, email: String, org: String = "demo", password: String = password) async throws -> TestResponse {
        try await app.request("/auth/register", method: .post, json: """
        {"org_slug": "\(org)", "first_name": "Rita", "last_name": "Runner", "email": "\(email)", "password": "\(password)"}
        """)
    }

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    static func withDemo(roles: [String] = ["ingest"], live: Bool = false, configure: (inout MusterConfiguration) -> Void = { _ in },
                         _ body: @escaping @Sendable (TestApp, People) async throws -> Void) async throws {
        try await apps.withTestApp(roles, live: live, configure: configure) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "demo", app: "offleash", name: "Demo walks")
            try await body(app, people)
        }
    }

    @Test func registerLoginValidateLogout() async throws {
        try await Self.withDemo { app, _ in
            let registered = try await Self.register(app, email: "  Rita@Example.com ")
            #expect(registered.status == .created, "\(registered.text)")
            let signedUp = try appDecoder.decode(ContractSignedIn.self, from: Data(buffer: registered.body))
            #expect(signedUp.user.email == "Rita@Example.com")
            #expect(signedUp.user.role == "customer")
            #expect(!registered.text.contains(".000Z"), "dates carry no fractions")

            let login = try await app.request("/auth/login", method: .post, json: """
            {"org_slug": "demo", "email": "rita@example.com", "password": "\(Self.password)"}
            """)
            #expect(login.status == .ok, "\(login.text)")
            let signedIn = try appDecoder.decode(ContractSignedIn.self, from: Data(buffer: login.body))
            #expect(signedIn.user == signedUp.user)

            let validate = try await app.request("/auth/validate", headers: Self.bearer(signedIn.token))
            #expect(validate.status == .ok, "\(validate.text)")
            let valid = try appDecoder.decode(ContractValidate.self, from: Data(buffer: validate.body))
            #expect(valid.valid)
            #expect(valid.user == signedIn.user)
            // The app never refreshes: its token lives a day.
            #expect(abs(valid.expiresAt.timeIntervalSinceNow - 86_400) < 120)

            let me = try await app.request("/users/me", headers: Self.bearer(signedIn.token))
            #expect(try appDecoder.decode(ContractUser.self, from: Data(buffer: me.body)) == signedIn.user)

            #expect(try await app.request("/auth/logout", method: .post, headers: Self.bearer(signedIn.token)).status == .noContent)
            let after = try await app.request("/auth/validate", headers: Self.bearer(signedIn.token))
            #expect(after.status == .unauthorized)
            // The other session (from registration) is untouched.
            #expect(try await app.request("/auth/validate", headers: Self.bearer(signedUp.token)).status == .ok)
        }
    }

    @Test func theAppsRulesAnswer422NamingTheFieldAndADuplicateIs409() async throws {
        try await Self.withDemo { app, _ in
            let cases: [(String, String)] = [
                (#"{"first_name": "A", "last_name": "B", "email": "not-an-email", "password": "Walkies2026"}"#, "valid email address"),
                (#"{"first_name": "A", "last_name": "B", "email": "a@b.c", "password": "Walkies2026"}"#, "valid email address"),
                (#"{"first_name": "A", "last_name": "B", "email": "a@example.com", "password": "Short1A"}"#, "at least 8"),
                (#"{"first_name": "A", "last_name": "B", "email": "a@example.com", "password": "walkies2026"}"#, "uppercase"),
                (#"{"first_name": "A", "last_name": "B", "email": "a@example.com", "password": "Walkiesssss"}"#, "number"),
                (#"{"first_name": " ", "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#, "First name"),
            ]
            for (body, message) in cases {
                let response = try await app.request("/auth/register", method: .post, json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect(try JSONDecoder().decode(ContractError.self, from: Data(buffer: response.body)).error.contains(message), "\(response.text)")
            }
            // An unknown organisation is 404, as the contract says.
            let nowhere = try await app.request("/auth/register", method: .post,
                                                json: #"{"org_slug": "nowhere", "first_name": "A", "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#)
            #expect(nowhere.status == .notFound && nowhere.text.contains("Unknown organization"), "\(nowhere.text)")
            #expect(try await Self.register(app, email: "dup@example.com").status == .created)
            let again = try await Self.register(app, email: "DUP@example.com ")
            #expect(again.status == .conflict, "\(again.text)")
        }
    }

    @Test func concurrentRegistrationsOfOneEmailMakeOneAccount() async throws {
        try await Self.withDemo { app, people in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.register(app, email: "race@example.com").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 7, "\(statuses)")
            #expect(await people.runner.read { $0.people.count } == 1)
        }
    }

    @Test func aWrongPasswordIsNot401AndAFloodIsLimited() async throws {
        try await Self.withDemo { app, _ in
            #expect(try await Self.register(app, email: "flood@example.com").status == .created)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<7 {
                let response = try await app.request("/auth/login", method: .post, json: #"{"email": "flood@example.com", "password": "Guess12345"}"#)
                statuses.append(response.status)
                if response.status == .tooManyRequests { #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 > 0) }
            }
            #expect(Array(statuses.prefix(5)) == Array(repeating: .badRequest, count: 5), "\(statuses)")
            #expect(statuses.suffix(2).allSatisfy { $0 == .tooManyRequests }, "\(statuses)")
            // Even the right password waits out the window: the limit comes before the hash.
            let right = try await app.request("/auth/login", method: .post, json: #"{"email": "flood@example.com", "password": "Walkies2026"}"#)
            #expect(right.status == .tooManyRequests)
            // An unknown email answers exactly as a wrong password does.
            let unknown = try await app.request("/auth/login", method: .post, json: #"{"email": "nobody@example.com", "password": "Walkies2026"}"#)
            #expect(unknown.status == .badRequest)
            #expect(unknown.text.contains("Invalid email or password"))
        }
    }

    /// Hole 8 of the authorization review: the address limit counted every attempt, successes
    /// too, so `make demo` (and an office, or a carrier's NAT) was locked out after 60 sign-ins.
    /// Only failures count; an address is believed from X-Forwarded-For only behind a trusted proxy.
    @Test func successfulSignInsNeverLockAnAddressOut() async throws {
        // An address limit of 5 (the default is 300 failures), so a dozen sign-ins show it: each
        // costs an argon2 hash, and a hundred of them slowed every test running beside this one.
        try await apps.withTestApp(["ingest"], configure: { $0[SignInSettings.self].loginAttemptsPerAddress = 5 }) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "demo", app: "offleash", name: "Demo walks")
            for n in 0..<3 { #expect(try await Self.register(app, email: "office\(n)@example.com").status == .created) }
            for round in 0..<4 {
                for n in 0..<3 {
                    let response = try await app.request("/auth/login", method: .post,
                                                         json: #"{"email": "office\#(n)@example.com", "password": "Walkies2026"}"#)
                    #expect(response.status == .ok, "sign-in \(round * 3 + n + 1): \(response.text)")
                }
            }
            // Failures from one address do add up, across accounts, to the address limit.
            let limiter = AttemptLimiter(limit: 5, addressLimit: 3)
            for account in ["a", "b", "c"] { limiter.failed(account: account, address: "203.0.113.9") }
            #expect(limiter.admit(account: "d", address: "203.0.113.9") != nil)
            #expect(limiter.admit(account: "d", address: "203.0.113.10") == nil)
            #expect(people.trustedProxies.isEmpty, "nobody's X-Forwarded-For is believed unless configured")
        }
    }

    /// Hole 5 of the authorization review: a field worker's token was accepted by OFFLEASH's routes,
    /// and anyone could sign up (or sign in) into a construction company through OFFLEASH's routes.
    @Test func anotherAppsTokenAndOrganisationAreUnknownHere() async throws {
        try await Self.withDemo { app, people in
            try await people.createOrganisationPatiently(slug: "acme-build", app: "field", name: "Acme Build")
            _ = try await people.addPerson(People.Registration(orgSlug: "acme-build", email: "ana@acme.example", firstName: "Ana", lastName: "F",
                                                               phone: nil, password: "Hardhat-ana-2026", role: "worker"))
            let worker = try await people.login(orgSlug: "acme-build", email: "ana@acme.example", password: "Hardhat-ana-2026", address: "test",
                                                policy: People.TokenPolicy(app: "field"))
            for path in ["/auth/validate", "/users/me", "/services", "/locations", "/bookings/customer"] {
                let response = try await app.request(path, headers: Self.bearer(worker.accessToken))
                #expect(response.status == .unauthorized, "\(path) with a field worker's token: \(response.text)")
            }
            let login = try await app.request("/auth/login", method: .post,
                                              json: #"{"org_slug": "acme-build", "email": "ana@acme.example", "password": "Hardhat-ana-2026"}"#)
            #expect(login.status == .notFound, "\(login.text)")
            let signUp = try await Self.register(app, email: "intruder@example.com", org: "acme-build")
            #expect(signUp.status == .notFound, "\(signUp.text)")
            #expect(try await people.personId(orgSlug: "acme-build", email: "intruder@example.com") == nil)
            // Found by schemathesis on the way: another app's refresh route turned an OFFLEASH
            // customer's refresh token into a field token. A refresh token is its session's app's.
            let customer = try await Self.register(app, email: "rita@example.com")
            let refresh = try #require(customer.json["refresh_token"] as? String, "\(customer.text)")
            await #expect(throws: AccountError.self) { try await people.refresh(refresh, policy: People.TokenPolicy(app: "field")) }
            let own = try await app.request("/auth/refresh", method: .post, json: #"{"refresh_token": "\#(refresh)"}"#)
            #expect(own.status == .ok, "the app's own refresh still works: \(own.text)")
        }
    }

    @Test func aRefreshTokenRotatesAndItsReuseEndsTheWholeSession() async throws {
        try await Self.withDemo { app, _ in
            let first = try appDecoder.decode(ContractRefreshable.self, from: Data(buffer: try await Self.register(app, email: "r@example.com").body))
            let second = try await app.request("/auth/refresh", method: .post, json: #"{"refresh_token": "\#(first.refreshToken)"}"#)
            #expect(second.status == .ok, "\(second.text)")
            let rotated = try appDecoder.decode(ContractRefreshable.self, from: Data(buffer: second.body))
            #expect(rotated.refreshToken != first.refreshToken)
            #expect(try await app.request("/auth/validate", headers: Self.bearer(rotated.token)).status == .ok)

            // The spent token again: a thief or a blind retry. The family ends.
            let reuse = try await app.request("/auth/refresh", method: .post, json: #"{"refresh_token": "\#(first.refreshToken)"}"#)
            #expect(reuse.status == .unauthorized)
            let newest = try await app.request("/auth/refresh", method: .post, json: #"{"refresh_token": "\#(rotated.refreshToken)"}"#)
            #expect(newest.status == .unauthorized)
            #expect(try await app.request("/auth/validate", headers: Self.bearer(rotated.token)).status == .unauthorized)
            #expect(try await app.request("/auth/validate", headers: Self.bearer(first.token)).status == .unauthorized)
        }
    }

    @Test func hostileRequestsGetAClear4xxAndStoreNothing() async throws {
        try await Self.withDemo { app, _ in
            let before = try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq
            let bodies: [(String, HTTPResponse.Status)] = [
                ("{", .badRequest),
                (#"{"first_name": null, "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#, .badRequest),
                (#"{"first_name": "A\u0000", "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#, .unprocessableContent),
                (#"{"first_name": "A", "first_name": "C", "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#, .badRequest),
                (#"{"first_name": 7, "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#, .badRequest),
                (#"{"first_name": "\#(String(repeating: "x", count: 101))", "last_name": "B", "email": "a@example.com", "password": "Walkies2026"}"#, .unprocessableContent),
                (#"{"first_name": "A", "last_name": "B", "email": "a@example.com", "password": "\#(String(repeating: "Aa1", count: 400))"}"#, .unprocessableContent),
                (String(repeating: " ", count: 20_000), .contentTooLarge),
            ]
            for (body, status) in bodies {
                let response = try await app.request("/auth/register", method: .post, json: body)
                #expect(response.status == status, "\(body.prefix(80)): \(response.text)")
                #expect(response.errorMessage.count > 5)
            }
            let tokens = ["", "Bearer", "Bearer abc", "Bearer a.b.c", "Basic dXNlcjpwYXNz",
                          "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "Bearer \(String(repeating: "a", count: 5000))"]
            for token in tokens {
                let headers: HTTPFields = token.isEmpty ? [:] : [.authorization: token]
                #expect(try await app.request("/auth/validate", headers: headers).status == .unauthorized, "\(token.prefix(40))")
            }
            #expect(try await app.request("/auth/refresh", method: .post, json: #"{"refresh_token": "nope"}"#).status == .unauthorized)
            #expect(try await app.log.jetStream.streamInfo("EVENTS").state.lastSeq == before)
        }
    }

    @Test func forgettingLeavesNoPlaintextAndFreesTheEmail() async throws {
        try await Self.withDemo { app, people in
            let email = "forget.me@example.com"
            let signedUp = try appDecoder.decode(ContractSignedIn.self, from: Data(buffer: try await Self.register(app, email: email).body))
            let keyBytes = try #require(try await KeyValue.open(app.log.jetStream, bucket: PersonalDataVault.bucketName, erasable: true).get(signedUp.user.id)).value
            let wrong = try await app.request("/users/me", method: .delete, headers: Self.bearer(signedUp.token), json: #"{"password": "Nope12345"}"#)
            #expect(wrong.status == .badRequest)
            let gone = try await app.request("/users/me", method: .delete, headers: Self.bearer(signedUp.token), json: #"{"password": "\#(Self.password)"}"#)
            #expect(gone.status == .noContent, "\(gone.text)")

            #expect(try await app.request("/auth/validate", headers: Self.bearer(signedUp.token)).status == .unauthorized)
            let login = try await app.request("/auth/login", method: .post, json: #"{"email": "\#(email)", "password": "\#(Self.password)"}"#)
            #expect(login.status == .badRequest)

            // Every stored message of every stream, read back from the server.
            let js = app.log.jetStream
            for stream in ["EVENTS", "DLQ", "KV_muster_person_keys", "KV_muster_auth"] {
                guard let info = try? await js.streamInfo(stream) else { continue }
                for sequence in info.state.firstSeq...max(info.state.firstSeq, info.state.lastSeq) where info.state.messages > 0 {
                    guard let message = try? await js.getMessage(stream: stream, sequence: sequence) else { continue }
                    let text = String(decoding: message.payload, as: UTF8.self).lowercased()
                    #expect(!text.contains("forget.me"), "\(stream) #\(sequence) holds the email")
                    #expect(!text.contains("runner"), "\(stream) #\(sequence) holds the name")
                }
            }
            let keys = try await KeyValue.open(js, bucket: PersonalDataVault.bucketName, erasable: true)
            #expect(try await keys.get(signedUp.user.id) == nil)
            // Nor on the server's disk: the purge leaves no copy of the key in the store's files.
            let store = app.env.server.directory
            var found: [String] = []
            for case let file as URL in FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil) ?? FileManager.DirectoryEnumerator() {
                guard let bytes = try? Data(contentsOf: file) else { continue }
                if bytes.range(of: keyBytes) != nil { found.append(file.path) }
                if bytes.range(of: Data("forget.me".utf8)) != nil { found.append(file.path + " (email)") }
            }
            #expect(found.isEmpty, "the person's key or email is still on the server's disk: \(found)")
            #expect(await people.runner.read { $0.people[signedUp.user.id]?.forgotten } == true)

            // The email is free again, for a new person.
            let again = try await Self.register(app, email: email)
            #expect(again.status == .created, "\(again.text)")
            #expect(try appDecoder.decode(ContractSignedIn.self, from: Data(buffer: again.body)).user.id != signedUp.user.id)
        }
    }

    @Test func jwksListsTheKeyThatSignedTheToken() async throws {
        try await Self.withDemo { app, _ in
            let signedUp = try appDecoder.decode(ContractSignedIn.self, from: Data(buffer: try await Self.register(app, email: "k@example.com").body))
            let header = try #require(signedUp.token.split(separator: ".").first)
            var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let headerData = try #require(Data(base64Encoded: base64))
            let fields = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
            let kid = try #require(fields["kid"] as? String)
            let jwks = try await app.request("/.well-known/jwks.json")
            #expect(jwks.status == .ok)
            let keys = try #require(jwks.json["keys"] as? [[String: Any]], "\(jwks.status): \(jwks.text)")
            #expect(keys.contains { $0["kid"] as? String == kid && $0["alg"] as? String == "ES256" && $0["crv"] as? String == "P-256" })
        }
    }
}
