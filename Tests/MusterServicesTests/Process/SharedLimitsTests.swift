import Foundation
import FoundationNetworking
import MusterAppTesting
import MusterLog
import MusterPlatform
import MusterTesting
import Testing

/// Two `muster serve all` processes on one NATS, as two replicas behind one gateway: a key's read
/// rate limit and an account's failed sign-ins are counted once across both (`Sharing`).
@Suite("Limits shared by two instances", .serialized)
struct SharedLimitsTests {
    static func call(_ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8); request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    func serve(_ env: TestLog, _ name: String, port: Int) throws -> Process {
        try ServeProcess.start("all", natsURL: env.server.url, data: env.server.directory.appendingPathComponent(name), port: port, metricsPort: nil,
                               instance: name, environment: ["MUSTER_RATE_READ": "6"])
    }

    @Test func aKeysReadLimitAndAnAccountsFailuresAreCountedOnceAcrossTwoInstances() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: KillNineTests.binary), "build muster first (swift build)")
        try await apps.withTestLog { env in
            _ = try await env.log.append(OrgCreated(orgId: UUID().uuidString.lowercased(), slug: "demo", app: "offleash", name: "Demo walks"))
            let (key, issued) = issuedKey(scopes: ["read:mobile"])
            _ = try await env.log.append(issued) // both processes fold it before /ready says 200
            let (portA, portB) = (try freePort(), try freePort())
            let (a, b) = ("http://127.0.0.1:\(portA)", "http://127.0.0.1:\(portB)")
            let first = try serve(env, "share-a", port: portA), second = try serve(env, "share-b", port: portB)
            defer { first.terminate(); second.terminate() }
            for base in [a, b] {
                try await eventually("\(base) ready", timeout: .seconds(60)) { (try? await Self.call(base + "/ready")) == 200 }
            }
            try await Task.sleep(for: .seconds(1)) // each has subscribed to the other's news (it does so as it starts)

            // 6 reads a minute for the key (one more every 10 s): 3 through each instance, then neither has any left.
            let read = "/api/mobile/data?lat=44.08&lng=-103.23"
            let spending = ContinuousClock.now // the bucket refills from here on
            for base in [a, b] {
                for _ in 0..<3 { #expect(try await Self.call(base + read, headers: ["X-API-Key": key]) == 200) }
                try await Task.sleep(for: .milliseconds(600)) // more than the 250 ms the instances take to tell each other
            }
            // A loaded machine may have taken 10 s or more over the six: as many more may pass as
            // refilled since the first, and not one more (through one instance alone, 3 more would).
            var passed = 0
            for base in [a, b] {
                let answer = try await firstRefused(since: spending, passed: &passed, refused: { $0 != 200 }) {
                    try await Self.call(base + read, headers: ["X-API-Key": key])
                }
                #expect(answer == 429, "the key's 6 were spent across both (\(base))")
            }

            // Five wrong passwords for one account, split between the instances: the account is locked on both.
            #expect(try await Self.call(a + "/auth/register", method: "POST", body: """
            {"org_slug": "demo", "first_name": "Rita", "last_name": "Runner", "email": "rita@example.com", "password": "Walkies2026"}
            """) == 201)
            let wrong = #"{"org_slug": "demo", "email": "rita@example.com", "password": "Wrong-2026"}"#
            for base in [a, b, a, b, a] {
                #expect(try await Self.call(base + "/auth/login", method: "POST", body: wrong) == 400)
                try await Task.sleep(for: .milliseconds(400))
            }
            let right = #"{"org_slug": "demo", "email": "rita@example.com", "password": "Walkies2026"}"#
            #expect(try await Self.call(b + "/auth/login", method: "POST", body: right) == 429, "locked, though b saw two of the five")
        }
    }
}
