import Foundation
import MusterEvents
import MusterLog
import MusterRuntime

extension People {
    /// How many businesses one person may start.
    package static let businessesPerPerson = 5

    /// A person's place in an organisation, as apps list it.
    package struct Membership: Sendable, Equatable {
        package var id: String
        package var orgId: String
        package var orgName: String
        package var orgSlug: String
        package var role: String
        package var title: String?
        package var joinedAt: String
    }

    /// The memberships of the person behind `claims` in their app's organisations: the one their
    /// sign-in identity belongs to (its id is the person's), then those granted since.
    ///
    /// Accounts of the same email in other organisations are separate people and are not listed:
    /// without a verified email, anyone could register that email elsewhere and reach the other
    /// person's organisation through it.
    package func memberships(_ claims: AccessClaims) async -> [Membership] {
        await runner.read { state in
            guard let person = state.people[claims.personId], !person.forgotten, let home = state.orgs[person.orgId] else { return [] }
            var all = [Membership(id: claims.personId, orgId: home.orgId, orgName: home.name, orgSlug: home.slug, role: person.role, title: nil,
                                  joinedAt: person.registeredAt)]
            for granted in state.memberships[claims.personId] ?? [] {
                guard let org = state.orgs[granted.orgId], org.app == home.app else { continue }
                all.append(Membership(id: granted.membershipId, orgId: org.orgId, orgName: org.name, orgSlug: org.slug, role: granted.role,
                                      title: granted.title, joinedAt: person.registeredAt))
            }
            return all
        }
    }

    /// A token for one of the caller's memberships: scoped to its organisation, with its role. The
    /// membership of the token's own organisation keeps the token the caller has (nil).
    package func switchTo(_ claims: AccessClaims, membershipId: String, policy: TokenPolicy) async throws -> (SignedIn?, Membership) {
        guard let membership = await memberships(claims).first(where: { $0.id == membershipId }) else {
            throw AccountError(.unknownPerson, "No membership \(membershipId.prefix(64)) of yours")
        }
        if membership.orgId == claims.org { return (nil, membership) }
        guard let (account, personal) = try await opened(claims.personId) else { throw AccountError(.invalidToken, "session has ended") }
        var scoped = account
        scoped.orgId = membership.orgId
        scoped.role = membership.role
        return (try await startSession(scoped, personal: personal, policy: policy), membership)
    }

    /// Grants the caller a role in an organisation of their app; the membership they hold there
    /// already answers instead (one per person and organisation, whoever asks at once).
    package func grantMembership(_ claims: AccessClaims, orgId: String, role: String, title: String? = nil) async throws -> Membership {
        if let held = await memberships(claims).first(where: { $0.orgId == orgId }) { return held }
        guard apps.roles(of: claims.app).contains(role) else { throw AccountError(.invalidField("role"), "\(role) is not a role of \(claims.app)") }
        let key = try await keyedHash("membership\n\(claims.personId)\n\(orgId)")
        let granted = MembershipGranted(membershipKey: key, membershipId: SecureRandom.uuidString(), personId: claims.personId, orgId: orgId,
                                        role: role, title: title)
        do {
            let result = try await log.append(granted, options: AppendOptions(expected: .noEvents, actor: "person:\(claims.personId)"))
            _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        } catch let error as AppendError where error.code == .conflict {
            let last = try await log.lastSequence(app: "platform", aggregate: "membership", id: key) ?? 0
            _ = await runner.waitUntilApplied(last, timeout: Self.settle)
        }
        guard let held = await memberships(claims).first(where: { $0.orgId == orgId }) else {
            throw AccountError(.loading, "The membership is still being recorded; retry shortly")
        }
        return held
    }

    /// Starts a business of the caller's app: a new organisation (its slug made unique) and the
    /// caller in it with `ownerRole`, the role the app gives whoever starts one (the platform names
    /// no app's roles), shown as `ownerTitle`.
    package func createBusiness(_ claims: AccessClaims, name: String, slug requested: String, ownerRole: String,
                                ownerTitle: String) async throws -> (PeopleProjection.Org, Membership) {
        try await founders.run(claims.personId) {
            try await startBusiness(claims, name: name, slug: requested, ownerRole: ownerRole, ownerTitle: ownerTitle)
        }
    }

    func startBusiness(_ claims: AccessClaims, name: String, slug requested: String, ownerRole: String,
                       ownerTitle: String) async throws -> (PeopleProjection.Org, Membership) {
        let name = name.trimmingWhitespace
        guard (3...100).contains(name.count) else { throw AccountError(.invalidField("business_name"), "The business name needs 3 to 100 characters") }
        // One person cannot fill the platform with businesses (each is an organisation for good).
        let owned = await runner.read { state in (state.memberships[claims.personId] ?? []).filter { $0.role == ownerRole }.count }
        guard owned < Self.businessesPerPerson else {
            throw AccountError(.emailTaken, "You run \(owned) businesses already, the most one person may start")
        }
        var base = Self.slug(requested)
        if base.isEmpty { base = Self.slug(name) }
        guard !base.isEmpty else { throw AccountError(.invalidField("slug"), "No web address can be made from that name") }
        var slug = base
        for _ in 0..<5 {
            if await runner.read({ $0.orgBySlug[slug] }) == nil {
                // Our own organisation or none: two people asking for one address at once both
                // append, the fold keeps the first, and the other tries another address.
                let created = OrgCreated(orgId: SecureRandom.uuidString(), slug: slug, app: claims.app, name: name)
                let result = try await log.append(created, options: AppendOptions(actor: "person:\(claims.personId)"))
                _ = await runner.waitUntilApplied(result.sequence, timeout: .seconds(10))
                if let org = await runner.read({ $0.orgs[created.orgId] }) {
                    return (org, try await grantMembership(claims, orgId: org.orgId, role: ownerRole, title: ownerTitle))
                }
            }
            slug = "\(base.prefix(59))-\(Int.random(in: 1000...9999))"
        }
        throw AccountError(.emailTaken, "That web address is taken; choose another")
    }

    /// Lowercase letters, digits and single dashes, no dash at either end, at most 64.
    static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) { slug.append(character) }
            else if (character == "-" || character == " "), slug.last != "-" { slug.append("-") }
        }
        return String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(64)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }
}
