import Foundation
import MusterJSON
@testable import MusterPlatform
import MusterTesting
import Testing

/// The people fold's snapshot writes its sessions member by member (`PeopleProjection+Snapshot`):
/// the bytes must be the ones its `Codable` conformance writes, in key order and in the order
/// members come (the snapshot's own encoder), since loading decodes them through it.
@Suite("The people snapshot, sessions written by hand, as its conformance writes it")
struct PeopleSnapshotTests {
    @Test func theBytesAreTheConformances() throws {
        var state = PeopleProjection.initialState
        state.orgs["org-1"] = .init(orgId: "org-1", slug: "demo", app: "offleash", name: "Demo \"walks\"")
        state.orgBySlug["demo"] = "org-1"
        state.accounts["key-1"] = .init(personId: "p-1", orgId: "org-1", role: "customer", sealed: "c2VhbGVk", sequence: 3)
        state.released["key-0"] = 2
        state.people["p-1"] = .init(accountKey: "key-1", orgId: "org-1", role: "customer", registeredAt: "2026-12-08T10:00:00Z",
                                    forgotten: false, suspended: nil)
        for n in 0..<120 {
            state.sessions["s-\(n)"] = .init(personId: "p-\(n % 7)", orgId: "org-1", app: n % 2 == 0 ? "offleash" : "shieldai",
                                             refreshHash: String(repeating: "ab", count: 32), refreshExpiresAt: "2027-01-07T10:00:00Z",
                                             revokedReason: n % 5 == 0 ? "signed-out" : nil, sequence: UInt64(n) + 10,
                                             startedAt: n % 3 == 0 ? nil : "2026-12-08T10:00:\(String(format: "%02d", n % 60))Z",
                                             lastUsedAt: n % 4 == 0 ? "2026-12-08T11:00:00Z" : nil,
                                             deviceId: n % 6 == 0 ? "dev_\(n)" : nil, deviceName: n % 6 == 0 ? "Casey’s \"phone\"\n" : nil,
                                             platform: n % 6 == 0 ? "ios" : nil)
        }
        state.sessions["s-max"] = .init(personId: "p-1", orgId: "org-1", app: "field", refreshHash: "", refreshExpiresAt: "",
                                        revokedReason: nil, sequence: .max, startedAt: nil, lastUsedAt: nil, deviceId: nil, deviceName: nil, platform: nil)
        state.identitiesByPerson["p-1"] = ["apple:1"]
        state.invitationByContact["contact"] = "code"
        state.invitationsSent["p-1"] = [1, 2]
        for (sorted, byHand, codable) in try HandWritten.bothWays(state) {
            #expect(byHand == codable, "sorted keys: \(sorted)")
        }
        #expect(try JSONBytesDecoder().decode(PeopleProjection.State.self, from: JSONBytesEncoder().encode(state)) == state)
    }
}
