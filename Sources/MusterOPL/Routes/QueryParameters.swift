import Foundation
import Hummingbird
import MusterRuntime

/// Reading query parameters the way the OPL clients write them: numbers may use exponent
/// notation (`1e-05`, `1.0E-4`), booleans are `true`/`false` (or `1`/`0`).
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
        switch string(name)?.lowercased() {
        case nil: nil
        case "true", "1", "yes": true
        case "false", "0", "no", "": false
        case let other?: throw APIError(.badRequest, "\(name) must be true or false, got \(other.prefix(40))")
        }
    }
}
