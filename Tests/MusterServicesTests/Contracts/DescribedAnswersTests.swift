import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterPlatform
import MusterServices
import MusterTesting
import NIOFoundationEssentialsCompat
import Testing

/// Answers schemathesis once found the description did not allow, each asked again on purpose and
/// held to `schemas/openapi.yaml` (`scripts/check_answers.py`: the status documented, the body of
/// its schema, and a request the server took one the description takes too).
@Suite("Answers the description once disallowed")
struct DescribedAnswersTests {
    @Test func theFourMismatchesOfTheHostileRunAnswerAsDescribed() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "demo", app: "offleash", name: "Demo walks")
            _ = try await people.addPerson(People.Registration(orgSlug: "demo", email: "walker@example.com", firstName: "W", lastName: "K",
                                                               phone: nil, password: "Walkies2026", role: "walker"))
            func token(_ response: TestResponse) throws -> HTTPFields {
                [.authorization: "Bearer \(try #require(response.json["token"] as? String, "\(response.text)"))"]
            }
            let customer = try token(try await app.request("/auth/register", method: .post, json: """
            {"org_slug": "demo", "first_name": "Rita", "last_name": "Runner", "email": "rita@example.com", "password": "Walkies2026"}
            """))
            let walker = try token(try await app.request("/auth/login", method: .post,
                                                         json: #"{"org_slug": "demo", "email": "walker@example.com", "password": "Walkies2026"}"#))
            var answers: [[String: Any]] = []
            func ask(_ method: HTTPRequest.Method, _ uri: String, described path: String, headers: HTTPFields = [:], json: String? = nil,
                     key: String? = nil) async throws -> TestResponse {
                let response = try await app.request(uri, method: method, key: key, headers: headers, json: json)
                var answer: [String: Any] = ["method": method.rawValue.lowercased(), "path": path, "status": Int(response.status.code)]
                answer["request"] = json.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } ?? NSNull()
                answer["response"] = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) ?? NSNull()
                answers.append(answer)
                return response
            }
            // 1. An enrollment from an installation that is not the caller's: 404, in tRPC's envelope.
            var device: HTTPFields = [.deviceID: "dev_" + String(repeating: "0", count: 32), .deviceSecret: "secret"]
            device[.contentType] = "application/json"
            let enrollKey = try await app.key(app: "shieldai", ["voice:enroll"])
            let enrollment = try await ask(.post, "/trpc/voiceprint.createEnrollment", described: "/trpc/voiceprint.createEnrollment",
                                           headers: device, json: #"{"audio": "UklGRg=="}"#, key: enrollKey)
            #expect(enrollment.status == .notFound && enrollment.text.contains("\"NOT_FOUND\""), "\(enrollment.text)")
            // 2. Control characters in a field: 422 on these three.
            #expect(try await ask(.post, "/contexts/switch", described: "/contexts/switch", headers: customer,
                                  json: #"{"membership_id": "a\u0001b"}"#).status == .unprocessableContent)
            #expect(try await ask(.post, "/walker/join-tenant", described: "/walker/join-tenant", headers: customer,
                                  json: #"{"invite_token": "abc\u0001defgh"}"#).status == .unprocessableContent)
            #expect(try await ask(.post, "/users/me/identities/google", described: "/users/me/identities/google", headers: customer,
                                  json: #"{"id_token": "a\u0001b"}"#).status == .unprocessableContent)
            // 3. A location's change with null coordinates keeps them.
            let saved = try await app.request("/locations", method: .post, headers: customer, json: """
            {"name": "Home", "address": "1 Main St", "city": "Rapid City", "state": "SD", "zip_code": "57701", "latitude": 44.08, "longitude": -103.23}
            """)
            let id = try #require(saved.json["id"] as? String, "\(saved.text)")
            let changed = try await ask(.put, "/locations/\(id)", described: "/locations/{id}", headers: customer, json: """
            {"name": "Home", "address": "2 Main St", "city": "Rapid City", "state": "SD", "zip_code": "57701", "latitude": null, "longitude": null}
            """)
            #expect(changed.status == .ok && changed.json["longitude"] as? Double == -103.23, "\(changed.text)")
            // 4. A walker's profile with null specializations keeps them.
            #expect(try await ask(.put, "/walker/profile", described: "/walker/profile", headers: walker,
                                  json: #"{"bio": "Dogs!", "specializations": null}"#).status == .ok)

            let input = try JSONSerialization.data(withJSONObject: answers)
            let checked = try await runToEnd("/usr/bin/env", ["python3", "scripts/check_answers.py", "schemas/openapi.yaml"],
                                             in: URL(fileURLWithPath: Repository.path("")),
                                             environment: ProcessInfo.processInfo.environment.merging(Repository.pythonEnvironment) { _, new in new },
                                             input: input, within: .seconds(60))
            #expect(checked.status == 0, "answers the description does not allow:\n\(checked.output)\(checked.error)")
        }
    }
}
