import Foundation
@testable import MusterEvents
import MusterOPL
import Testing

/// Pure rules, no I/O: blocklist entries, automatic checks, the fold's refusals.
@Suite("OPL rules without I/O")
struct OPLRulesTests {
    @Test(arguments: [
        ("https://www.Acme.com/", "acme.com"), ("acme.com", "acme.com"), ("http://shop.acme.com/deals?x=1#top", "shop.acme.com/deals?x=1"),
        ("facebook.com/AcmeCorp/", "facebook.com/AcmeCorp"), ("user@acme.com:8080", "acme.com"), ("acme.com.", "acme.com"),
    ])
    func blocklistEntriesArePlainHostPaths(_ typed: String, _ entry: String) {
        #expect(BlocklistURLs.entry(typed) == entry)
    }

    @Test(arguments: ["", "not a host", "localhost", "acme\\.com", "^https?://acme.com", "-acme.com", "ACME"])
    func junkIsNoEntry(_ typed: String) {
        #expect(BlocklistURLs.entry(typed) == nil, "\(typed)")
    }

    func submitted(_ name: String = "Acme", website: String? = nil, learnMore: String? = nil, at: Coordinates? = Coordinates(latitude: 44, longitude: -103),
                   by: String = "key_0000000000000001", location: String = "Rapid City") -> ActionSubmitted {
        ActionSubmitted(actionId: OPLIDs.random("act_"), employer: EmployerDetails(name: name, website: website),
                        action: ActionDetails(organization: "U", actionType: "strike", location: location, startDate: "2026-11-01T00:00:00Z",
                                              durationDays: 10, description: "d", learnMoreUrl: learnMore, coordinates: at),
                        submittedBy: by)
    }

    /// - Parameter times: each event's time, when they are not all the same.
    func fold(_ events: [any EventPayload], times: [String]? = nil) throws -> OPLProjection.State {
        var state = OPLProjection.initialState
        for (index, payload) in events.enumerated() {
            try OPLProjection.apply(RecordedEvent(sequence: UInt64(index + 1), subject: payload.eventType.subject(aggregateID: payload.aggregateID),
                                                  id: "e\(index)", source: "test", time: times?[index] ?? "2026-11-20T00:00:00Z",
                                                  actor: nil, traceparent: nil,
                                                  storedType: payload.eventType, aggregateID: payload.aggregateID, payload: payload), to: &state)
        }
        return state
    }

    @Test func checksFlagDuplicatesWebsitesURLsRatesAndMissingPlaces() throws {
        let first = submitted("Acme Corp.")
        let state = try fold([first])
        let now = OPLDates.parse("2026-11-20T00:30:00Z")!
        let flags = ModerationChecks.flags(for: submitted("ACME corp", website: "https://facebook.com/acme", learnMore: "http://acme.com",
                                                          at: nil, location: "Unknown"), in: state, now: now)
        #expect(Set(flags.map(\.code)) == ["duplicate", "website", "url", "no-location"])
        #expect(flags.first { $0.code == "duplicate" }?.relatedId == first.actionId)
        // Same employer far away is not a duplicate; a clean submission has no flags.
        #expect(ModerationChecks.flags(for: submitted("Acme Corp", at: Coordinates(latitude: 47.6, longitude: -122.3)), in: state, now: now).isEmpty)
        // Rate: the sixth submission from one key within an hour.
        let burst = (0..<5).map { submitted("Employer \($0)") }
        let busy = try fold(burst)
        #expect(ModerationChecks.flags(for: submitted("Other"), in: busy, now: now).map(\.code) == ["rate"])
    }

    /// The checks' indexes are derived, not stored: a state read back from its snapshot file has
    /// them again, and an approval that renames the employer moves the action to its new name.
    @Test func theChecksIndexesSurviveASnapshotAndFollowRenames() throws {
        let a = submitted("Acme Corp.")
        let renamed = ActionApproved(actionId: a.actionId, employerId: OPLIDs.employer(named: "Acme Logistics"),
                                     employer: EmployerDetails(name: "Acme Logistics"), action: a.action, urls: [], locations: [],
                                     moderator: "m", reason: "ok")
        let state = try fold([a, renamed] + (0..<5).map { submitted("Employer \($0)") })
        let reloaded = try JSONDecoder().decode(OPLProjection.State.self, from: JSONEncoder().encode(state))
        #expect(reloaded == state)
        #expect(state.actionsByEmployer[OPLIDs.employer(named: "Acme Logistics")] == [a.actionId])
        #expect(state.actionsByEmployer[OPLIDs.employer(named: "Acme Corp.")]?.isEmpty != false)
        let now = OPLDates.parse("2026-11-20T00:30:00Z")!
        let flags = ModerationChecks.flags(for: submitted("ACME logistics"), in: reloaded, now: now).map(\.code)
        #expect(flags == ["duplicate", "rate"])
    }

    /// A submitter's times stay in submission order after a snapshot is read back, even when an
    /// older submission's latest event (its approval) came after a newer submission.
    @Test func submissionTimesKeepTheirOrderAcrossAReload() throws {
        let old = submitted("Old Co"), new = submitted("New Co")
        let approved = ActionApproved(actionId: old.actionId, employerId: OPLIDs.employer(named: "Old Co"),
                                      employer: old.employer, action: old.action, urls: [], locations: [], moderator: "m", reason: "ok")
        let state = try fold([old, new, approved], times: ["2026-11-19T22:00:00Z", "2026-11-19T23:50:00Z", "2026-11-19T23:55:00Z"])
        let reloaded = try JSONDecoder().decode(OPLProjection.State.self, from: JSONEncoder().encode(state))
        #expect(reloaded == state)
        let now = try #require(Timestamp.millis("2026-11-20T00:00:00Z"))
        for folded in [state, reloaded] {
            #expect(OPLProjection.State.recent(folded.actionTimesBySubmitter[old.submittedBy], now: now) == 1, "only the 23:50 submission is within the hour")
        }
    }

    @Test func theBlocklistRevisionMovesOnlyWithWhatTheBlocklistsShow() throws {
        let a = submitted()
        let approved = ActionApproved(actionId: a.actionId, employerId: OPLIDs.employer(named: "Acme"), employer: a.employer,
                                      action: a.action, urls: ["acme.com"], locations: [], moderator: "m", reason: "ok")
        let steps: [(any EventPayload, UInt64)] = [
            (a, 0), (ActionChecked(actionId: a.actionId, flags: []), 0),
            (approved, 1), (ActionChecked(actionId: a.actionId, flags: []), 2), // on an approved action: shown fields may change
            (ActionEnded(actionId: a.actionId, moderator: "m", reason: "over"), 3),
        ]
        var events: [any EventPayload] = []
        for (payload, revision) in steps {
            events.append(payload)
            #expect(try fold(events).blocklistRevision == revision, "after \(payload.eventType)")
        }
        let other = submitted("Other")
        #expect(try fold(events + [other, ActionRejected(actionId: other.actionId, moderator: "m", reason: "spam")]).blocklistRevision == 3)
    }

    @Test func theFoldRefusesWhatCannotHappenAndKeepsItsState() throws {
        let a = submitted()
        var state = try fold([a])
        let before = state
        let refusals: [any EventPayload] = [
            a, // submitted twice
            ActionEnded(actionId: a.actionId, moderator: "m", reason: "r"), // not approved
            ActionMerged(actionId: a.actionId, into: "act_0000000000000000", moderator: "m", reason: "r"), // unknown target
            ActionRejected(actionId: "act_1111111111111111", moderator: "m", reason: "r"), // unknown action
            SnapshotRejected(snapshotId: "snp_1111111111111111", moderator: "m", reason: "r"),
        ]
        for payload in refusals {
            #expect(throws: (any Error).self) {
                try OPLProjection.apply(RecordedEvent(sequence: 9, subject: payload.eventType.subject(aggregateID: payload.aggregateID), id: "x",
                                                      source: "t", time: "2026-11-20T00:00:00Z", actor: nil, traceparent: nil,
                                                      storedType: payload.eventType, aggregateID: payload.aggregateID, payload: payload), to: &state)
            }
            #expect(state == before)
        }
    }
}
