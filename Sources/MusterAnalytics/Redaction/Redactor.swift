/// Replaces personal data and secrets in free text by a typed placeholder before anything
/// reaches the log: `[email]`, `[phone]`, `[token]`, `[api-key]`, `[ip]`, `[secret]`.
///
/// A hand-written scanner rather than regular expressions: it runs on every string of every
/// event (stack frames and breadcrumbs included), and most strings — screen names, versions,
/// endpoints — leave at the first check. It errs towards redacting: a lost digit string costs
/// less than a leaked phone number. The corpus in `RedactionTests` pins what it must and must
/// not touch.
package struct Redactor: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        case email, phone, token, apiKey = "api-key", ip, secret
        var placeholder: [UInt8] { Array("[\(rawValue)]".utf8) }
    }

    package init() {}

    package func redact(_ text: String) -> String {
        var bytes = Array(text.utf8)
        guard mightContainSomething(bytes) else { return text }
        var changed = false
        // Until nothing changes (at most 4 rounds): a replacement can bring together what an
        // earlier rule then sees (`99999999999:::0::` becomes `[phone]:::0::`, an IPv6 shape), and
        // redacted text must come out the same when redacted again.
        for _ in 0..<4 {
            var round = false
            for pass in passes {
                if let replaced = pass(bytes), replaced != bytes {
                    bytes = replaced
                    round = true
                }
            }
            guard round else { break }
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// True unless the text is short and has nothing any rule starts from.
    func mightContainSomething(_ bytes: [UInt8]) -> Bool {
        var digits = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: "@"), UInt8(ascii: "="), UInt8(ascii: ":"): return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits >= 4 { return true }
            default: break
            }
        }
        return bytes.count >= 20
    }

    private var passes: [([UInt8]) -> [UInt8]?] {
        [RedactionRules.namedSecrets, RedactionRules.authorization, RedactionRules.keysAndTokens,
         RedactionRules.emails, RedactionRules.ipAddresses, RedactionRules.phones]
    }
}

/// A span to replace and what goes there.
struct Replacement {
    var range: Range<Int>
    var kind: Redactor.Kind
}

extension Array where Element == UInt8 {
    /// Applies non-overlapping replacements (sorted by start), or nil when there are none.
    func applying(_ replacements: [Replacement]) -> [UInt8]? {
        guard !replacements.isEmpty else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(count)
        var at = 0
        for r in replacements.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where r.range.lowerBound >= at {
            out.append(contentsOf: self[at..<r.range.lowerBound])
            out.append(contentsOf: r.kind.placeholder)
            at = r.range.upperBound
        }
        out.append(contentsOf: self[at...])
        return out
    }
}
