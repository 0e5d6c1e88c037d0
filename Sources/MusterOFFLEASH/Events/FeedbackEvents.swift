package import MusterEvents

/// `offleash.feedback.submitted.v1`: a bug report or feature request from the app. The text is
/// the person's own words: sealed with their key, like everything else they write.
package struct FeedbackSubmitted: EventPayload {
    package static let eventType = EventType(app: "offleash", aggregate: "feedback", event: "submitted", major: 1)
    package static let types: Set<String> = ["bug", "feature"]

    package var feedbackId: String
    package var personId: String
    package var orgId: String
    package var type: String
    /// Base64 AES-GCM box of `{title, description}`.
    package var sealed: String

    package var aggregateID: String { feedbackId }

    package func validate() throws {
        try Validate.uuid(feedbackId, field: "/feedbackId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(type, Self.types, field: "/type")
        try Validate.base64(sealed, 40...32768, field: "/sealed")
    }
}
