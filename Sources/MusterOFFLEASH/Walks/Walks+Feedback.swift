import Foundation
import MusterEvents
import MusterLog
import MusterRuntime
package import MusterPlatform

extension Walks {
    struct FeedbackText: Codable {
        var title: String
        var description: String
    }

    /// Records a bug report or feature request; its id is the answer (no issue tracker is
    /// configured here; operators read feedback from the log with the person's key).
    package func submitFeedback(_ claims: AccessClaims, type: String, title: String, description: String) async throws -> String {
        guard FeedbackSubmitted.types.contains(type) else { throw OFFLEASHError(.invalidField("type"), "type must be bug or feature") }
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines), description = description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (5...200).contains(title.count) else { throw OFFLEASHError(.invalidField("title"), "The title needs 5 to 200 characters") }
        guard (20...10_000).contains(description.count) else {
            throw OFFLEASHError(.invalidField("description"), "The description needs 20 to 10000 characters")
        }
        let sealed = try await people.vault.seal(FeedbackText(title: title, description: description), for: claims.personId)
        let id = SecureRandom.uuidString()
        try await append(FeedbackSubmitted(feedbackId: id, personId: claims.personId, orgId: claims.org, type: type, sealed: sealed), actor: claims.personId)
        return id
    }

    /// The organisation a host names (`demo.offleash.world` → `demo`), else the default one.
    package func branding(host: String?) async -> (companyName: String, slug: String) {
        let label = host.map { String($0.prefix { $0 != "." && $0 != ":" }).lowercased() } ?? ""
        return await people.runner.read { state in
            let org = state.orgBySlug[label].flatMap { state.orgs[$0] }.flatMap { $0.app == OFFLEASHApp.appName ? $0 : nil }
                ?? state.orgBySlug[OFFLEASHApp.defaultOrg].flatMap { state.orgs[$0] }
            return (org?.name ?? "Offleash", org?.slug ?? OFFLEASHApp.defaultOrg)
        }
    }
}
