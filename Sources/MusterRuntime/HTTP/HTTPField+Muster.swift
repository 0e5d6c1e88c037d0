package import HTTPTypes

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters, digits, -) is a valid field name.
    /// A client's retry key for a write: the same key makes the same event (one, however often sent).
    package static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// The scheme a client used to reach the gateway (nginx sets it), for links the server hands out.
    // The unwrap cannot fail: "X-Forwarded-Proto" is a literal token, a valid field name.
    package static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}

extension HTTPFields {
    /// The value of the one field named `name`; nil when there is none, or more than one. For
    /// fast paths, which decline whatever the route might treat otherwise, and which cannot afford
    /// the joined string `self[name]` builds (it was 5 % of a 304's cost).
    package func sole(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return nil }
            found = field.value
        }
        return found
    }
}
