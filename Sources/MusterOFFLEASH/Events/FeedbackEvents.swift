public import MusterEvents

/// `offleash.feedback.submitted.v1`: a bug report or feature request from the app. The text is
/// the person's own words: sealed with their key, like everything else they write.
public struct FeedbackSubmitted: EventPayload {
    public static let eventType = EventType(app: "offleash", aggregate: "feedback", event: "submitted", major: 1)
    public static let types: Set<String> = ["bug", "feature"]

    public var feedbackId: String
    public var personId: String
    public var orgId: String
    public var type: String
    /// Base64 AES-GCM box of `{title, description}`.
    public var sealed: String

    public var aggregateID: String { feedbackId }

    public func validate() throws {
        try Validate.uuid(feedbackId, field: "/feedbackId")
        try Validate.uuid(personId, field: "/personId")
        try Validate.uuid(orgId, field: "/orgId")
        try Validate.oneOf(type, Self.types, field: "/type")
        try Validate.base64(sealed, 40...32768, field: "/sealed")
    }
}
