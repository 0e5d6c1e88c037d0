import Foundation
import Hummingbird
import HTTPTypes
import MusterRuntime
import Testing

/// Who may call a route is declared where it is registered, and checked there: the rule's
/// answers for each kind of caller, and a router that serves a route nobody declared access for
/// does not start.
@Suite("Access rules: declared with each route, checked before its handler")
struct AccessRuleTests {
    enum TallyRole: String, AppRole {
        case clerk, chief
        static var app: String { "tally" }
        func satisfies(_ required: TallyRole) -> Bool { self == required || (self == .chief && required == .clerk) }
    }

    static let key = AuthenticatedClient(id: "key_1", app: "tally", scopes: ["read:tally"])
    static func person(_ role: String, app: String = "tally") -> SignedInPerson {
        SignedInPerson(personId: "p1", sessionId: "s1", org: "o1", role: role, app: app, sequence: 1, issuedAt: Date(), expiresAt: Date().addingTimeInterval(60))
    }

    static func status(_ rule: AccessRule, _ caller: Caller) -> Int {
        do {
            _ = try rule.admit(caller)
            return 200
        } catch let error as APIError {
            return Int(error.status.code)
        } catch {
            return 0
        }
    }

    @Test func eachRuleAdmitsWhomItSays() {
        let nobody = Caller(), key = Caller(key: .proved(Self.key)), chief = Caller(person: .proved(Self.person("chief")))
        let otherAppKey = Caller(key: .proved(AuthenticatedClient(id: "key_2", app: "other", scopes: ["read:tally"])))
        let bareKey = Caller(key: .proved(AuthenticatedClient(id: "key_3", app: "tally", scopes: [])))
        #expect(Self.status(.anyone, nobody) == 200)
        #expect(Self.status(.key("tally", scope: "read:tally"), nobody) == 401)
        #expect(Self.status(.key("tally", scope: "read:tally"), otherAppKey) == 401)
        #expect(Self.status(.key("tally", scope: "read:tally"), bareKey) == 403)
        #expect(Self.status(.key("tally", scope: "read:tally"), key) == 200)
        #expect(Self.status(.key(nil, scope: "read:tally"), otherAppKey) == 200, "a shared service takes any app's key")
        #expect(Self.status(.person(TallyRole.clerk), chief) == 200, "a chief counts as a clerk")
        #expect(Self.status(.person(TallyRole.chief), Caller(person: .proved(Self.person("clerk")))) == 403)
        #expect(Self.status(.person(anyRoleOf: TallyRole.self), Caller(person: .proved(Self.person("stranger")))) == 403,
                "a role the app does not declare is no role of it")
        #expect(Self.status(.person(TallyRole.clerk), Caller(person: .proved(Self.person("chief", app: "other")))) == 401)
        #expect(Self.status(.person(TallyRole.clerk), key) == 401, "a key is no person")
        #expect(Self.status(.keyAndPerson("tally", scope: "read:tally"), chief) == 401)
        #expect(Self.status(.keyAndPerson("tally", scope: "read:tally"), Caller(key: .proved(Self.key), person: .proved(Self.person("clerk")))) == 200)
        #expect(Self.status(.keyOrPerson("tally", scope: "read:tally"), key) == 200)
        #expect(Self.status(.keyOrPerson("tally", scope: "read:tally"), Caller(key: .proved(Self.key), person: .refused(APIError(.unauthorized, "bad")))) == 401,
                "a token sent is the one judged")
        // A page admits its visitors and shows everyone else its sign-in form (no error).
        let page = AccessRule.page(scope: "read:tally", roles: TallyRole.chief)
        #expect((try? page.admit(nobody)) == .nobody)
        var visitor = Caller()
        visitor.page = .proved(.person(Self.person("chief")))
        #expect((try? page.admit(visitor)) == Self.person("chief").principal)
        #expect((try? page.admit(key)) == .nobody, "a page takes no X-API-Key unless it says so")
    }

    @Test func theRulesReadAsTheirXAccess() {
        #expect(AccessRule.anyone.description == "public")
        #expect(AccessRule.key(nil, scope: "push:send").description == "key:*:push:send")
        #expect(AccessRule.person(TallyRole.clerk, .chief).description == "person:tally:clerk,chief")
        #expect(AccessRule.person(anyRoleOf: TallyRole.self).description == "person:tally:*")
        #expect(AccessRule.keyAndPerson("tally", scope: "write:tally").description == "key-and-person:tally:write:tally")
        #expect(AccessRule.page(scope: "read:tally", roles: TallyRole.chief).description == "page:tally")
    }

    @Test func aRouteAddedWithoutARuleStopsTheProcessFromStarting() throws {
        let router = Router(context: MusterRequestContext.self)
        let table = RouteTable()
        let routes = Routes(router, table: table)
        routes.get("/declared/{id}", access: .anyone) { _, _ in "ok" }
        try table.requireDeclared(router)
        // Around `Routes`, straight on the framework's router: nobody said who may call it.
        router.get("/stray/:id") { _, _ in "anyone at all" }
        #expect(throws: UndeclaredAccess.self) { try table.requireDeclared(router) }
        do {
            try table.requireDeclared(router)
        } catch let error as UndeclaredAccess {
            #expect(error.routes == [RouteTable.Route(method: "get", path: "/stray/{id}")], "\(error)")
        }
    }
}
