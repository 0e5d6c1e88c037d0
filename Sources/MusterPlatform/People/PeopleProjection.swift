package import MusterEvents
import MusterLog

/// Organisations, sign-in identities, people and sessions: what sign-in, refresh and token
/// validation read, in memory. Personal data stays sealed here; only `People` opens it, with the
/// person's key, when an answer needs it.
package enum PeopleProjection: Projection {
    package struct Org: Codable, Sendable, Equatable {
        package var orgId: String
        package var slug: String
        package var app: String
        package var name: String
    }

    package struct Account: Codable, Sendable, Equatable {
        package var personId: String
        package var orgId: String
        package var role: String
        package var sealed: String
        /// The stream sequence of the identity's last event (the next append expects it).
        package var sequence: UInt64
    }

    package struct Person: Codable, Sendable, Equatable {
        package var accountKey: String
        package var orgId: String
        package var role: String
        package var registeredAt: String
        package var forgotten: Bool
        /// Why an operator stopped them signing in; nil while they may (optional: older snapshots lack it).
        package var suspended: String?
    }

    /// A provider's sign-in identity linked to a person.
    package struct Identity: Codable, Sendable, Equatable {
        package var identityId: String
        package var personId: String
        package var provider: String
        package var sealed: String
        package var linkedAt: String
        /// The stream sequence of its last event.
        package var sequence: UInt64
    }

    package struct Session: Codable, Sendable, Equatable {
        package var personId: String
        package var orgId: String
        package var app: String
        package var refreshHash: String
        package var refreshExpiresAt: String
        package var revokedReason: String?
        /// The stream sequence of the session's last event.
        package var sequence: UInt64
        /// When it began and when its refresh token was last spent (event times); none in a
        /// snapshot written before they were kept.
        package var startedAt: String?
        package var lastUsedAt: String?
        package var deviceId: String?
        package var deviceName: String?
        package var platform: String?
    }

    /// An invitation to join an organisation, from its sending until it is used or given up.
    package struct Invitation: Codable, Sendable, Equatable {
        package var invitationId: String
        package var contactKey: String
        package var orgId: String
        package var role: String
        package var expiresAt: Int64
        /// Who joined with it; kept so that their retry after a failure completes the membership.
        package var acceptedBy: String?
        /// The stream sequence of its last event (the next append to the contact's aggregate expects it).
        package var sequence: UInt64
    }

    package struct State: Codable, Sendable, Equatable {
        package var orgs: [String: Org] = [:]
        /// slug → orgId
        package var orgBySlug: [String: String] = [:]
        /// accountKey → the identity, while it belongs to a person.
        package var accounts: [String: Account] = [:]
        /// accountKey → the sequence of its release, so a new registration can follow it.
        package var released: [String: UInt64] = [:]
        package var people: [String: Person] = [:]
        package var sessions: [String: Session] = [:]
        /// identityKey → the linked identity.
        package var identities: [String: Identity] = [:]
        /// identityKey → the sequence of its unlinking, so a new link can follow it.
        package var unlinkedIdentities: [String: UInt64] = [:]
        /// personId → their identities' keys.
        package var identitiesByPerson: [String: [String]] = [:]
        /// personId → the memberships granted besides their account's own, in the order granted.
        package var memberships: [String: [MembershipGranted]] = [:]
        /// code hash → the invitation it opens.
        package var invitations: [String: Invitation] = [:]
        /// contactKey → the code hash of its latest invitation.
        package var invitationByContact: [String: String] = [:]
        /// personId → when they sent invitations (milliseconds), within an hour of their latest.
        package var invitationsSent: [String: [Int64]] = [:]
    }

    package static let name = "people"
    /// 2: sign-in identities of Apple, Google and phone numbers; memberships. 3: invitations.
    package static let version = 3
    package static let filterSubjects = ["events.platform.org.>", "events.platform.account.>", "events.platform.person.>",
                                        "events.platform.session.>", "events.platform.identity.>",
                                        "events.platform.membership.>", "events.platform.invitation.>"]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let created as OrgCreated:
            guard state.orgBySlug[created.slug] == nil else { throw ProjectionRejection("organisation \(created.slug) exists") }
            state.orgs[created.orgId] = Org(orgId: created.orgId, slug: created.slug, app: created.app, name: created.name)
            state.orgBySlug[created.slug] = created.orgId
        case let registered as AccountRegistered:
            guard state.orgs[registered.orgId] != nil else { throw ProjectionRejection("unknown organisation \(registered.orgId)") }
            guard state.accounts[registered.accountKey] == nil, state.people[registered.personId] == nil else {
                throw ProjectionRejection("account or person registered twice")
            }
            state.accounts[registered.accountKey] = Account(personId: registered.personId, orgId: registered.orgId,
                                                            role: registered.role, sealed: registered.sealed, sequence: event.sequence)
            state.released[registered.accountKey] = nil
            state.people[registered.personId] = Person(accountKey: registered.accountKey, orgId: registered.orgId,
                                                       role: registered.role, registeredAt: event.time, forgotten: false)
        case let changed as AccountChanged:
            guard var account = state.accounts[changed.accountKey], account.personId == changed.personId else {
                throw ProjectionRejection("change of an unknown account")
            }
            account.sealed = changed.sealed
            account.sequence = event.sequence
            state.accounts[changed.accountKey] = account
        case let moved as AccountMoved:
            guard var account = state.accounts[moved.fromKey], account.personId == moved.personId, state.accounts[moved.accountKey] == nil else {
                throw ProjectionRejection("a move of an unknown account, or onto a taken one")
            }
            // The old key's aggregate last had the account's own last event: a new registration of it expects that.
            state.released[moved.fromKey] = account.sequence
            state.released[moved.accountKey] = nil
            account.sealed = moved.sealed
            account.sequence = event.sequence
            state.accounts[moved.fromKey] = nil
            state.accounts[moved.accountKey] = account
            state.people[moved.personId]?.accountKey = moved.accountKey
        case let linked as IdentityLinked:
            if let current = state.identities[linked.identityKey], state.people[current.personId]?.forgotten == false {
                throw ProjectionRejection("identity linked twice")
            }
            if let previous = state.identities[linked.identityKey] {
                state.identitiesByPerson[previous.personId]?.removeAll { $0 == linked.identityKey }
            }
            state.identities[linked.identityKey] = Identity(identityId: linked.identityId, personId: linked.personId, provider: linked.provider,
                                                            sealed: linked.sealed, linkedAt: event.time, sequence: event.sequence)
            state.unlinkedIdentities[linked.identityKey] = nil
            state.identitiesByPerson[linked.personId, default: []].append(linked.identityKey)
        case let unlinked as IdentityUnlinked:
            guard state.identities[unlinked.identityKey]?.personId == unlinked.personId else { return }
            state.identities[unlinked.identityKey] = nil
            state.unlinkedIdentities[unlinked.identityKey] = event.sequence
            state.identitiesByPerson[unlinked.personId]?.removeAll { $0 == unlinked.identityKey }
        case let granted as MembershipGranted:
            guard state.orgs[granted.orgId] != nil else { throw ProjectionRejection("unknown organisation \(granted.orgId)") }
            guard !(state.memberships[granted.personId] ?? []).contains(where: { $0.orgId == granted.orgId }) else {
                throw ProjectionRejection("membership granted twice")
            }
            state.memberships[granted.personId, default: []].append(granted)
        case let sent as InvitationSent:
            guard state.orgs[sent.orgId] != nil else { throw ProjectionRejection("unknown organisation \(sent.orgId)") }
            if let previous = state.invitationByContact[sent.contactKey] { state.invitations[previous] = nil }
            state.invitations[sent.codeHash] = Invitation(invitationId: sent.invitationId, contactKey: sent.contactKey, orgId: sent.orgId,
                                                          role: sent.role, expiresAt: Timestamp.millis(sent.expiresAt) ?? 0, acceptedBy: nil,
                                                          sequence: event.sequence)
            state.invitationByContact[sent.contactKey] = sent.codeHash
            let at = Timestamp.millis(event.time) ?? 0
            state.invitationsSent[sent.inviterId] = (state.invitationsSent[sent.inviterId] ?? []).filter { at - $0 < 3_600_000 } + [at]
        case let accepted as InvitationAccepted:
            guard let code = state.invitationByContact[accepted.contactKey], state.invitations[code]?.invitationId == accepted.invitationId else { return }
            state.invitations[code]?.acceptedBy = accepted.personId
            state.invitations[code]?.sequence = event.sequence
        case let withdrawn as InvitationWithdrawn:
            guard let code = state.invitationByContact[withdrawn.contactKey], state.invitations[code]?.invitationId == withdrawn.invitationId else { return }
            state.invitations[code] = nil
            state.invitationByContact[withdrawn.contactKey] = nil
        case let released as AccountReleased:
            guard state.accounts[released.accountKey]?.personId == released.personId else { return }
            state.accounts[released.accountKey] = nil
            state.released[released.accountKey] = event.sequence
        case let forgotten as PersonForgotten:
            state.people[forgotten.personId]?.forgotten = true
        case let reassigned as PersonReassigned:
            guard let person = state.people[reassigned.personId] else { return }
            state.people[reassigned.personId]?.role = reassigned.role
            if state.accounts[person.accountKey]?.personId == reassigned.personId { state.accounts[person.accountKey]?.role = reassigned.role }
        case let suspended as PersonSuspended:
            state.people[suspended.personId]?.suspended = suspended.reason
        case let reinstated as PersonReinstated:
            state.people[reinstated.personId]?.suspended = nil
        case let started as SessionStarted:
            state.sessions[started.sessionId] = Session(personId: started.personId, orgId: started.orgId, app: started.app,
                                                        refreshHash: started.refreshHash, refreshExpiresAt: started.refreshExpiresAt,
                                                        revokedReason: nil, sequence: event.sequence, startedAt: event.time,
                                                        lastUsedAt: event.time, deviceId: started.deviceId, deviceName: started.deviceName,
                                                        platform: started.platform)
        case let refreshed as SessionRefreshed:
            guard var session = state.sessions[refreshed.sessionId] else { throw ProjectionRejection("unknown session") }
            session.refreshHash = refreshed.refreshHash
            session.refreshExpiresAt = refreshed.refreshExpiresAt
            session.sequence = event.sequence
            session.lastUsedAt = event.time
            state.sessions[refreshed.sessionId] = session
        case let revoked as SessionRevoked:
            guard var session = state.sessions[revoked.sessionId] else { return }
            if session.revokedReason == nil { session.revokedReason = revoked.reason }
            session.sequence = event.sequence
            state.sessions[revoked.sessionId] = session
        default:
            return
        }
    }
}

extension PeopleProjection.State {
    /// The account of `accountKey` if its person may still sign in.
    package func activeAccount(_ accountKey: String) -> PeopleProjection.Account? {
        guard let account = accounts[accountKey], people[account.personId]?.forgotten == false else { return nil }
        return account
    }

    /// True while the session's tokens are good: known, not revoked, its person not forgotten.
    package func sessionIsLive(_ sessionId: String) -> Bool {
        guard let session = sessions[sessionId], session.revokedReason == nil else { return false }
        return people[session.personId]?.forgotten == false
    }
}
