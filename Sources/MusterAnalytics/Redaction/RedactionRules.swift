/// The rules `Redactor` applies, in order; each returns the text with its finds replaced, or nil.
enum RedactionRules {
    // MARK: character classes
    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    static func isHex(_ b: UInt8) -> Bool { isDigit(b) || ((b | 0x20) >= 97 && (b | 0x20) <= 102) }
    static func isAlnum(_ b: UInt8) -> Bool { isDigit(b) || isLetter(b) }
    /// Letters, digits and what tokens and keys are made of (base64url, `.`, `+`, `/`, `=`, `~`).
    static func isTokenChar(_ b: UInt8) -> Bool {
        isAlnum(b) || b == 45 || b == 95 || b == 46 || b == 43 || b == 47 || b == 61 || b == 126
    }
    static func lower(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: secrets by name: `?token=…`, `password: …`, `X-API-Key: …`

    static let secretNames: Set<String> = [
        "key", "pwd", "pass", "pin", "otp", "sig", "code", "auth", "session", "sessionid", "session_id", "sid", "jwt",
    ]
    static let secretNameParts = ["token", "secret", "passw", "signature", "credential", "apikey", "api_key", "api-key", "authorization", "private"]

    static func isSecretName(_ name: String) -> Bool {
        secretNames.contains(name) || secretNameParts.contains { name.contains($0) }
    }

    static func namedSecrets(_ b: [UInt8]) -> [UInt8]? {
        var out: [Replacement] = []
        var i = 0
        while i < b.count {
            let c = b[i]
            guard c == 61 || c == 58 else { i += 1; continue } // `=` or `:`
            // The name before it, maybe quoted (`"api_key": "…"`).
            var nameEnd = i
            if nameEnd > 0, b[nameEnd - 1] == 34 { nameEnd -= 1 }
            var start = nameEnd
            while start > 0, isAlnum(b[start - 1]) || b[start - 1] == 95 || b[start - 1] == 45 { start -= 1 }
            let name = lower(b[start..<nameEnd])
            // `key=…` in a query string is a secret; `key: …` in prose may not be, so a colon needs a telling name.
            guard !name.isEmpty, c == 61 ? isSecretName(name) : secretNameParts.contains(where: name.contains) else { i += 1; continue }
            var valueStart = i + 1
            while valueStart < b.count, b[valueStart] == 32 { valueStart += 1 }
            if valueStart < b.count, b[valueStart] == 34 { valueStart += 1 }
            var end = valueStart
            while end < b.count, !isValueEnd(b[end]) { end += 1 }
            let value = lower(b[valueStart..<end])
            // `key://…` is a scheme; a placeholder is done; `Bearer …` is the next rule's.
            if end > valueStart, b[valueStart] != 47, b[valueStart] != 91, value != "bearer", value != "basic" {
                out.append(Replacement(range: valueStart..<end, kind: .secret))
                i = end
            } else {
                i += 1
            }
        }
        return b.applying(out)
    }

    static func isValueEnd(_ c: UInt8) -> Bool {
        c == 38 || c == 35 || c == 32 || c == 9 || c == 10 || c == 13 || c == 34 || c == 39 || c == 59 || c == 44 || c == 41 || c == 125 || c == 93 || c == 60 || c == 62
    }

    // MARK: `Bearer …` and `Basic …`

    static func authorization(_ b: [UInt8]) -> [UInt8]? {
        var out: [Replacement] = []
        for scheme in ["bearer ", "basic "] {
            let pattern = Array(scheme.utf8)
            var i = 0
            while i + pattern.count < b.count {
                let matches = (0..<pattern.count).allSatisfy { (isLetter(b[i + $0]) ? b[i + $0] | 0x20 : b[i + $0]) == pattern[$0] }
                let boundary = i == 0 || !isAlnum(b[i - 1])
                guard matches, boundary else { i += 1; continue }
                var start = i + pattern.count
                while start < b.count, b[start] == 32 { start += 1 }
                var end = start
                while end < b.count, isTokenChar(b[end]) { end += 1 }
                if end - start >= 8 { out.append(Replacement(range: start..<end, kind: .token)) }
                i = max(end, i + 1)
            }
        }
        return b.applying(out)
    }

    // MARK: JWTs, API keys, long hex secrets

    /// Prefixes of well-known key formats (Muster's own `<app>_` keys, Stripe, GitHub, Slack, AWS, Google).
    static let keyPrefixes = ["opl_", "pop_", "shieldai_", "field_", "offleash_", "platform_", "sk_live_", "sk_test_", "pk_live_",
                              "pk_test_", "rk_live_", "ghp_", "gho_", "ghs_", "github_pat_", "xoxb-", "xoxp-", "xoxa-", "akia", "aiza"]

    static func keysAndTokens(_ b: [UInt8]) -> [UInt8]? {
        var out: [Replacement] = []
        var i = 0
        while i < b.count {
            guard isAlnum(b[i]) || b[i] == 95 else { i += 1; continue }
            var end = i
            while end < b.count, isAlnum(b[end]) || b[end] == 95 || b[end] == 45 || b[end] == 46 { end += 1 }
            // Trailing dots are punctuation.
            while end > i, b[end - 1] == 46 { end -= 1 }
            let word = b[i..<end]
            if let kind = classifyWord(word) { out.append(Replacement(range: i..<end, kind: kind)) }
            i = max(end, i + 1)
        }
        return b.applying(out)
    }

    static func classifyWord(_ w: ArraySlice<UInt8>) -> Redactor.Kind? {
        guard w.count >= 16 else { return nil }
        // JWT: three base64url parts, the first a JSON header (`eyJ`).
        if w.starts(with: Array("eyJ".utf8)) {
            let parts = w.split(separator: 46, omittingEmptySubsequences: false)
            if parts.count == 3, parts[0].count >= 10, parts[1].count >= 4 { return .token }
        }
        let lowered = lower(w)
        for prefix in keyPrefixes where lowered.hasPrefix(prefix) && w.count >= prefix.utf8.count + 12 {
            return .apiKey
        }
        // 32 or more hex digits in a row: a key, a hash of one, a session secret.
        var run = 0, longest = 0
        for c in w {
            run = isHex(c) ? run + 1 : 0
            longest = max(longest, run)
        }
        if longest >= 32 { return .apiKey }
        return nil
    }

    // MARK: emails

    static func isLocalChar(_ c: UInt8) -> Bool { isAlnum(c) || c == 46 || c == 95 || c == 37 || c == 43 || c == 45 }
    static func isDomainChar(_ c: UInt8) -> Bool { isAlnum(c) || c == 46 || c == 45 }

    static func emails(_ b: [UInt8]) -> [UInt8]? {
        var out: [Replacement] = []
        var i = 0
        var taken = 0 // the end of the last address: the next one starts after it, never inside it
        while i < b.count {
            guard b[i] == 64 else { i += 1; continue } // `@`
            var start = i
            while start > taken, isLocalChar(b[start - 1]) { start -= 1 }
            var end = i + 1
            while end < b.count, isDomainChar(b[end]) { end += 1 }
            while end > i + 1, b[end - 1] == 46 || b[end - 1] == 45 { end -= 1 }
            // The domain needs a dot and a top-level part of two or more letters.
            let domain = b[(i + 1)..<end]
            if start < i, let dot = domain.lastIndex(of: 46), end - dot - 1 >= 2, b[(dot + 1)..<end].allSatisfy(isLetter), dot > i + 1 {
                out.append(Replacement(range: start..<end, kind: .email))
                taken = end
            }
            i = max(end, i + 1)
        }
        return b.applying(out)
    }

    // MARK: IP addresses

    static func ipAddresses(_ b: [UInt8]) -> [UInt8]? {
        var out: [Replacement] = []
        var i = 0
        while i < b.count {
            guard isHex(b[i]) || b[i] == 58, i == 0 || !(isAlnum(b[i - 1]) || b[i - 1] == 46 || b[i - 1] == 58) else { i += 1; continue }
            var end = i
            while end < b.count, isHex(b[end]) || b[end] == 46 || b[end] == 58 { end += 1 }
            var word = b[i..<end]
            while let last = word.last, last == 46 { word = word.dropLast() } // sentence dot
            let followedByWord = word.endIndex < b.count && isAlnum(b[word.endIndex])
            if !followedByWord, isIPv4(word) || isIPv6(word) {
                out.append(Replacement(range: i..<word.endIndex, kind: .ip))
            }
            i = max(end, i + 1)
        }
        return b.applying(out)
    }

    static func isIPv4(_ w: ArraySlice<UInt8>) -> Bool {
        var w = w
        if let colon = w.lastIndex(of: 58), w[..<colon].contains(46) { w = w[..<colon] } // `1.2.3.4:443`
        let parts = w.split(separator: 46, omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy(isDigit) && (Int(String(decoding: part, as: UTF8.self)) ?? 256) <= 255
        }
    }

    static func isIPv6(_ w: ArraySlice<UInt8>) -> Bool {
        guard !w.contains(46) || isIPv4(w[(w.lastIndex(of: 58).map { $0 + 1 } ?? w.startIndex)...]) else { return false }
        let colons = w.filter { $0 == 58 }.count
        let compressed = String(decoding: w, as: UTF8.self).contains("::")
        guard colons >= 2, compressed || colons == 7 else { return false }
        let groups = w.split(separator: 58, omittingEmptySubsequences: true)
        guard groups.count >= (compressed ? 2 : 8) - (w.contains(46) ? 1 : 0) else { return false }
        return groups.allSatisfy { g in g.contains(46) || ((1...4).contains(g.count) && g.allSatisfy(isHex)) }
    }

    // MARK: phone numbers

    static func phones(_ b: [UInt8]) -> [UInt8]? {
        var out: [Replacement] = []
        var i = 0
        while i < b.count {
            let c = b[i]
            let starts = isDigit(c) || ((c == 43 || c == 40) && i + 1 < b.count && isDigit(b[i + 1]))
            guard starts, i == 0 || !(isAlnum(b[i - 1]) || b[i - 1] == 46 || b[i - 1] == 45 || b[i - 1] == 47 || b[i - 1] == 95) else { i += 1; continue }
            // Digits with single separators: space, `-`, `.`, parentheses.
            var end = i, digits = 0, lastDigit = i
            var separators: [UInt8] = []
            while end < b.count {
                let x = b[end]
                if isDigit(x) { digits += 1; lastDigit = end; end += 1; continue }
                let isSeparator = x == 32 || x == 45 || x == 46 || x == 40 || x == 41 || x == 43
                guard isSeparator, end + 1 < b.count, isDigit(b[end + 1]) || (x == 41 && b[end + 1] == 32) || (x == 32 && b[end + 1] == 40) else { break }
                separators.append(x)
                end += 1
            }
            let span = i..<(lastDigit + 1)
            if isPhone(b[span], digits: digits, separators: separators),
               span.upperBound >= b.count || !(isLetter(b[span.upperBound]) || b[span.upperBound] == 95) {
                out.append(Replacement(range: span, kind: .phone))
            }
            i = max(lastDigit + 1, i + 1)
        }
        return b.applying(out)
    }

    static func isPhone(_ w: ArraySlice<UInt8>, digits: Int, separators: [UInt8]) -> Bool {
        let text = String(decoding: w, as: UTF8.self)
        let plus = w.first == 43
        if separators.isEmpty || (plus && separators == [43]) {
            // A bare run of digits: a phone only at 10 to 15 digits, and not an epoch time.
            guard (10...15).contains(digits) else { return false }
            if !plus, digits == 10 || digits == 13, text.hasPrefix("1"), let value = Int64(text.prefix(10)),
               (978_307_200...4_102_444_800).contains(value) { return false }
            return true
        }
        guard (7...15).contains(digits) else { return false }
        // Dates (2026-11-21), versions and decimals (1.2.3, 3.14159) are not phones.
        let groups = text.split(whereSeparator: { !$0.isNumber })
        if separators.allSatisfy({ $0 == 45 }), groups.count == 3, groups[0].count == 4 { return false }
        if separators.contains(46) {
            // Only the North American `605.555.0199` shape uses dots.
            return separators.allSatisfy { $0 == 46 } && groups.map(\.count) == [3, 3, 4]
        }
        if separators.allSatisfy({ $0 == 32 }), groups.allSatisfy({ $0.count <= 2 }) { return false } // "1 2 3 4 5 6 7"
        return true
    }
}
