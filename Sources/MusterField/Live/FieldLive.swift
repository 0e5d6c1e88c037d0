import Foundation
import HTTPTypes
import HummingbirdWebSocket
import Logging
import MusterEvents
import MusterJSON
import MusterLog
import NIOWebSocket
package import MusterPlatform
package import MusterRuntime

/// Live updates: `GET /api/field/live?since=CURSOR` upgraded to a WebSocket (with the same bearer
/// token as every field route). The server sends what changed since the cursor, in the pull's
/// pages, then each change as it lands in the log; every message carries the cursor after it. A
/// device that reconnects with the last cursor it received misses nothing and gets nothing twice.
package struct FieldLive: Sendable {
    package static let path = "/api/field/live"
    let sync: FieldSync
    let people: People

    package init(sync: FieldSync, people: People) {
        self.sync = sync
        self.people = people
    }

    /// What one message says: the pull's page, with its kind.
    struct Message: Encodable, Sendable {
        var type = "changes"
        var cursor: String
        var more: Bool
        var full: Bool
        var records: [RecordBody]

        init(_ page: PullPage) {
            let answer = PullAnswer(page)
            (cursor, more, full, records) = (answer.cursor, answer.more, answer.full, answer.records)
        }
    }

    package var route: WebSocketRoute {
        // Refused as the plain route refuses (the same rule): 401 for a missing or bad token, 422 for a bad cursor.
        WebSocketRoute(path: Self.path, access: .fieldPerson) { request, caller in
            guard let signedIn = caller.person.value else { return .refused(APIError(.unauthorized, "missing bearer token")) }
            guard let since = Self.since(request.path ?? "") else {
                return .refused(APIError(.unprocessableContent, "since must be a cursor from an earlier answer"))
            }
            let person = FieldPerson(personId: signedIn.personId, orgId: signedIn.org, role: signedIn.role)
            return .session { inbound, outbound, _ in
                sync.presence.arrived(person.personId)
                defer { sync.presence.left(person.personId) }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // The device says nothing the server needs; its close (or the pings' silence) ends the session.
                    group.addTask { for try await _ in inbound.messages(maxSize: 4096) {} }
                    group.addTask { try await send(to: person, from: since, outbound) }
                    // The watch waits from the position at which the session was found live: a sign-out
                    // folded after the upgrade's check then wakes it.
                    group.addTask { try await watch(signedIn, outbound) }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    /// Sends pages until cancelled: at once what the cursor has not seen, then each time the fold moves.
    func send(to person: FieldPerson, from since: PullCursor, _ outbound: WebSocketOutboundWriter) async throws {
        var (cursor, first) = (since, true)
        while !Task.isCancelled {
            let page = await sync.pull(person, since: cursor, limit: FieldBook.maxPage)
            if first || page.full || !page.records.isEmpty {
                let bytes = try JSONBytesEncoder().encode(Message(page))
                try await outbound.write(.text(String(decoding: bytes, as: UTF8.self)))
                first = false
            }
            cursor = page.cursor
            if !page.more { _ = await sync.runner.waitUntilApplied(cursor.position + 1, timeout: .seconds(30)) }
        }
    }

    /// The longest a session's token goes unchecked while the people fold stands still (an outage
    /// of what checks it leaves the socket to the next check).
    static let recheck: Duration = .seconds(60)

    /// Returns once the session's token no longer holds (expired, signed out, the person forgotten),
    /// having closed the socket with 1008 and why: a socket never outlives what opened it. It checks
    /// again whenever the people fold moves (a sign-out or a forgetting is an event there), so an
    /// ended session's socket closes as soon as this process has folded the end, and at the latest
    /// at the recheck or the token's expiry. The device signs in again and reconnects with its cursor.
    /// It starts from the people fold's position at which the session was found live.
    func watch(_ person: SignedInPerson, _ outbound: WebSocketOutboundWriter) async throws {
        var checkpoint = person.checkedAt
        let expiry = person.expiresAt
        while true {
            let untilExpiry = Duration.milliseconds(Int64(max(0, expiry.timeIntervalSinceNow) * 1000))
            _ = await people.runner.waitUntilApplied(checkpoint + 1, timeout: min(untilExpiry, Self.recheck))
            try Task.checkCancellation()
            checkpoint = people.runner.currentCheckpoint
            guard expiry > Date(), await people.sessionIsLive(person) else { break }
        }
        try await outbound.close(.policyViolation, reason: "the access token expired or its session ended; sign in and reconnect")
    }

    /// The `since` of `/api/field/live?since=…` (none: from the start); nil when it is no cursor.
    static func since(_ target: String) -> PullCursor? {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return PullCursor(position: 0) }
        for pair in query.split(separator: "&") where pair.hasPrefix("since=") {
            return PullCursor(String(pair.dropFirst("since=".count)))
        }
        return PullCursor(position: 0)
    }
}
