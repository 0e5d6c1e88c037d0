public import HTTPTypes

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters, digits, -) is a valid field name.
    /// A client's retry key for a write: the same key makes the same event (one, however often sent).
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// The scheme a client used to reach the gateway (nginx sets it), for links the server hands out.
    // The unwrap cannot fail: "X-Forwarded-Proto" is a literal token, a valid field name.
    public static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
