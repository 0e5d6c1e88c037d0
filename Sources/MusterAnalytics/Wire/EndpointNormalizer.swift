import Foundation
/// Turns what an app reports as an endpoint into a stable, low-cardinality key with no personal
/// data: `GET https://api.example.com/bookings/8121/cancel?token=…` → `/bookings/{id}/cancel`.
/// Ids (numbers, UUIDs, long hex, mixed letter-digit tokens like `act_3f9a…`) become `{id}`; the
/// query string is dropped (its values are what leaks); emails and the like become placeholders.
package enum EndpointNormalizer {
    package static func normalize(_ raw: String, redactor: Redactor) -> String {
        var path = Substring(raw.trimmingCharacters(in: .whitespaces))
        if let scheme = path.range(of: "://") {
            path = path[scheme.upperBound...]
            path = path.firstIndex(of: "/").map { path[$0...] } ?? "/"
        }
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).prefix(12).map { segment -> String in
            isIdentifier(segment) ? "{id}" : redactor.redact(String(segment.prefix(60)))
        }
        return "/" + segments.joined(separator: "/")
    }

    static func isIdentifier(_ s: Substring) -> Bool {
        let digits = s.utf8.filter { $0 >= 48 && $0 <= 57 }.count
        if digits == s.utf8.count { return true }
        let hexOrDash = s.utf8.allSatisfy { RedactionRules.isHex($0) || $0 == 45 }
        if hexOrDash, s.utf8.count >= 8, digits > 0 { return true }
        // Prefixed ids (`act_0a1b…`, `usr-42x9`): a digit somewhere in a long token.
        return s.utf8.count >= 8 && digits >= 2 && s.contains(where: { $0 == "_" || $0 == "-" })
    }
}
