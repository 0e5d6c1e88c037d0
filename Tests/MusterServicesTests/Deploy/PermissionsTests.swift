import Foundation
import MusterAppTesting
import MusterNATS
import MusterRuntime
import MusterTesting
import Testing

/// `deploy/nats/permissions.conf` follows from what the apps declare: each role's NATS user may
/// publish every event type the role appends and no event subject it does not, and may subscribe
/// to every endpoint the role answers.
@Suite("NATS permissions follow the apps' declarations")
struct PermissionsTests {
    struct User { var publish: [String]; var subscribe: [String] }

    /// The users of permissions.conf, by name, with their allow lists.
    static func users() throws -> [String: User] {
        let text = try String(contentsOfFile: Repository.path("deploy/nats/permissions.conf"), encoding: .utf8)
        func allowList(_ kind: String, in block: Substring) -> [String] {
            guard let start = block.range(of: "\(kind): { allow: [") else { return [] }
            let rest = block[start.upperBound...]
            let list = rest[..<(rest.firstIndex(of: "]") ?? rest.endIndex)]
            return list.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        var users: [String: User] = [:]
        for block in text.components(separatedBy: "{ user: ").dropFirst() {
            let name = String(block.prefix { $0 != "," })
            users[name] = User(publish: allowList("publish", in: Substring(block)), subscribe: allowList("subscribe", in: Substring(block)))
        }
        return users
    }

    /// Every subject `filter` matches, `pattern` matches too (NATS wildcards: `*` one token, `>` the rest).
    static func covers(_ pattern: String, _ filter: String) -> Bool {
        let p = pattern.split(separator: "."), f = filter.split(separator: ".")
        for (index, token) in p.enumerated() {
            if token == ">" { return index < f.count }
            guard index < f.count else { return false }
            if token == "*" { if f[index] == ">" { return false } } else if token != f[index] { return false }
        }
        return p.count == f.count
    }

    @Test func eachRolesUserMayAppendExactlyWhatItsAppsDeclare() async throws {
        let users = try Self.users()
        try await apps.withTestLog { env in
            for role in ServiceRole.allCases {
                let user = try #require(users[role.name], "permissions.conf has no user \(role.name)")
                let parts = apps.parts(for: role, environment: env.environment)
                for subject in parts.appends {
                    #expect(user.publish.contains { Self.covers($0, subject) }, "\(role.name) appends \(subject) but may not publish it")
                }
                for pattern in user.publish where pattern.hasPrefix("events.") {
                    #expect(parts.appends.contains { Self.covers(pattern, $0) }, "\(role.name) may publish \(pattern), which no app of it appends")
                }
                for endpoint in parts.endpoints {
                    #expect(user.subscribe.contains { Self.covers($0, endpoint.subject) }, "\(role.name) answers \(endpoint.subject) but may not subscribe to it")
                }
            }
        }
    }

    /// Every process watches the log (`LogWatch`): the events stream's info once a second, and the
    /// account's info (answered by the meta leader only) before leaving a server. A user that may
    /// not ask either takes every election for a dead server (the compose cluster test caught it).
    @Test func everyRolesUserMayAskWhatTheLogWatchAsks() throws {
        let users = try Self.users()
        for role in ServiceRole.allCases {
            let user = try #require(users[role.name], "permissions.conf has no user \(role.name)")
            for subject in ["$JS.API.STREAM.INFO.EVENTS", "$JS.API.INFO"] {
                #expect(user.publish.contains { Self.covers($0, subject) }, "\(role.name) may not publish \(subject)")
            }
        }
    }

    /// A person's key is read from the process's copy or by direct get (`KeyValue.read`). A user
    /// that may read the bucket through the API but not directly has its request go unanswered,
    /// and the sign-in waits out the deadline and answers 503 (the compose test caught it).
    @Test func whoMayReadPersonKeysMayReadThemDirectly() throws {
        let users = try Self.users()
        for (name, user) in users {
            let api = user.publish.contains { Self.covers($0, "$JS.API.STREAM.MSG.GET.KV_muster_person_keys") }
            let direct = user.publish.contains { Self.covers($0, "$JS.API.DIRECT.GET.KV_muster_person_keys.$KV.muster_person_keys.p1") }
            #expect(api == direct, "\(name) may read person keys \(api ? "through the API only" : "directly only")")
            // And keeps its copy of them (`KeyValueMirror`): without these its every read asks the server.
            for call in ["CREATE", "INFO", "MSG.NEXT", "DELETE"] {
                let subject = "$JS.API.CONSUMER.\(call).KV_muster_person_keys.mirror_muster_person_keys_1f"
                #expect(user.publish.contains { Self.covers($0, subject) } == api, "\(name) may read person keys but not copy them (\(call))")
            }
        }
    }

    @Test func wildcardsCoverAsNATSMatches() {
        #expect(Self.covers("events.>", "events.opl.action.*.geocoded.v1"))
        #expect(Self.covers("events.opl.action.*.checked.v1", "events.opl.action.*.checked.v1"))
        #expect(!Self.covers("events.opl.action.*.checked.v1", "events.opl.action.*.reopened.v1"))
        #expect(!Self.covers("events.analytics.alert.>", "events.analytics.alert"))
        #expect(!Self.covers("events.opl.*", "events.opl.action.*.checked.v1"))
    }
}
