public import HTTPTypes

extension HTTPField.Name {
    /// A client's retry key for a write: the same key makes the same event (one, however often sent).
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
