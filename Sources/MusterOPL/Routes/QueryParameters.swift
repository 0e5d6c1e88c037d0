import Foundation
import Hummingbird
import MusterRuntime

/// Reading query parameters the way the OPL clients write them: numbers may use exponent
/// notation (`1e-05`, `1.0E-4`), booleans are `true` or `false`, hashes are hex.
struct QueryParameters {
    let parameters: Parameters

    init(_ request: Request) { parameters = request.uri.queryParameters }
    init(_ parameters: Parameters) { self.parameters = parameters }

    func string(_ name: String) -> String? { parameters[name[...]].map(String.init) }

    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = string(name) else { return nil }
        // Double(String) also reads "nan", "inf" and hex floats; only finite decimal numbers pass.
        guard text.utf8.allSatisfy({ (48...57).contains($0) || [43, 45, 46, 69, 101].contains($0) }),
              let value = Double(text), value.isFinite else {
            throw APIError(.badRequest, "\(name) must be a number, got \(text.prefix(40))")
        }
        guard range.contains(value) else {
            throw APIError(.badRequest, "\(name) must be from \(range.lowerBound.formatted()) to \(range.upperBound.formatted())")
        }
        return value
    }

    func bool(_ name: String) throws -> Bool? {
        switch string(name) {
        case nil: nil
        case "true": true
        case "false": false
        case let other?: throw APIError(.badRequest, "\(name) must be true or false, got \(other.prefix(40).debugDescription)")
        }
    }

    /// The `X-Content-Hash` a client holds: 64 lowercase hex digits, or empty (none held yet).
    func hash() throws -> String? {
        guard let text = string("hash"), !text.isEmpty else { return nil }
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw APIError(.badRequest, "hash must be the X-Content-Hash of an earlier answer (64 lowercase hex digits), got \(text.prefix(70).debugDescription)")
        }
        return text
    }
}
