package import MusterEvents

extension JSONValue {
    /// Every string, keys included, through the redactor.
    package func redacted(by redactor: Redactor) -> JSONValue {
        switch self {
        case .string(let s): .string(redactor.redact(s))
        case .array(let a): .array(a.map { $0.redacted(by: redactor) })
        case .object(let o): .object(Dictionary(o.map { (redactor.redact($0.key), $0.value.redacted(by: redactor)) }, uniquingKeysWith: { a, _ in a }))
        default: self
        }
    }
}
