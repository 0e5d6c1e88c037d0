import Foundation
import MusterEvents
import MusterLog

/// What a sign-in says of the device it comes from: the installation its refresh token is bound
/// to (proved by the device registry), and the name and platform the person sees in their list.
package struct SessionDevice: Sendable, Equatable {
    package var deviceId: String?
    package var name: String?
    package var platform: String?

    package init(deviceId: String? = nil, name: String? = nil, platform: String? = nil) {
        self.deviceId = deviceId
        self.name = name
        self.platform = platform
    }
}

extension People {
    /// One live session, as its person sees it in their list.
    package struct SessionView: Sendable, Equatable {
        package var id: String
        package var deviceName: String?
        package var platform: String?
        /// Whether its refresh token is bound to an installation (and so refreshes only there).
        package var boundToDevice: Bool
        package var startedAt: String
        package var lastUsedAt: String
        /// The session the request asking for the list belongs to.
        package var current: Bool
    }

    /// The person's live sessions in the app of `claims`, newest first.
    package func sessions(_ claims: AccessClaims) async -> [SessionView] {
        let now = Timestamp.millis(Date())
        return await runner.read { state in
            state.sessions.filter { $0.value.personId == claims.personId && $0.value.app == claims.app && $0.value.revokedReason == nil
                && (Timestamp.millis($0.value.refreshExpiresAt) ?? 0) > now }
                .map { id, session in
                    SessionView(id: id, deviceName: session.deviceName, platform: session.platform, boundToDevice: session.deviceId != nil,
                                startedAt: session.startedAt ?? "", lastUsedAt: session.lastUsedAt ?? session.startedAt ?? "",
                                current: id == claims.sid)
                }
                .sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
        }
    }

    /// Ends one of the person's sessions (their own, in this app; any other id is unknown: 404).
    package func endSession(_ claims: AccessClaims, sessionId: String) async throws {
        guard await sessions(claims).contains(where: { $0.id == sessionId }) else {
            throw AccountError(.unknownSession, "No session \(sessionId.prefix(64)) of yours")
        }
        try await revoke(sessionId, reason: "signed-out")
    }

    /// Ends every session of the person in this app but the one asking; answers how many ended.
    package func endOtherSessions(_ claims: AccessClaims) async throws -> Int {
        let others = await sessions(claims).filter { !$0.current }
        for session in others { try await revoke(session.id, reason: "signed-out-elsewhere") }
        return others.count
    }

    /// Ends every live session of a person, in every app (a password reset).
    func endEverySession(of personId: String, reason: String) async throws {
        let live = await runner.read { state in state.sessions.filter { $0.value.personId == personId && $0.value.revokedReason == nil }.keys }
        for sessionId in live { try await revoke(sessionId, reason: reason) }
    }
}
