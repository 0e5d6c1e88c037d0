/// The rules OFFLEASH's app shows for email and password, enforced identically on the server
/// (PoP's newsletter uses the same email rule).
package enum AccountRules {
    /// The trimmed address if it matches `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`.
    package static func email(_ raw: String) -> String? {
        let email = raw.trimmingWhitespace
        let bytes = Array(email.utf8)
        guard bytes.count <= 254, let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        let local = bytes[..<at], domain = bytes[(at + 1)...]
        func isAlnum(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        func isAlpha(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        guard !local.isEmpty, local.allSatisfy({ isAlnum($0) || "._%+-".utf8.contains($0) }) else { return nil }
        guard domain.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
              let dot = domain.lastIndex(of: UInt8(ascii: ".")), dot > domain.startIndex else { return nil }
        let tld = domain[(dot + 1)...]
        // The pattern backtracks to any dot followed by two or more letters up to the end; the last dot is the one.
        guard tld.count >= 2, tld.allSatisfy(isAlpha) else { return nil }
        return email
    }

    /// The address an account made by phone sign-in stands under (`<digits>@phone.<app>.app`):
    /// reserved, so nobody registers a number's address before its owner signs in with it.
    package static func phoneStandIn(_ phone: String, app: String) -> String {
        "\(phone.filter(\.isNumber))@phone.\(app).app"
    }

    /// Whether `email` is under a phone sign-in's reserved domain (`phone.<app>.app`, any app).
    package static func isReserved(_ email: String) -> Bool {
        let domain = normalisedEmail(email).split(separator: "@").last ?? ""
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count == 3 && labels[0] == "phone" && labels[2] == "app"
    }

    /// How lookups see an address: trimmed and lowercased.
    package static func normalisedEmail(_ email: String) -> String { email.trimmingWhitespace.lowercased() }

    /// Nil when the password is acceptable, else what is missing.
    package static func passwordProblem(_ password: String) -> String? {
        if password.count < 8 { return "Password must be at least 8 characters" }
        if password.utf8.count > 1024 { return "Password must be at most 1024 bytes" }
        if !password.contains(where: \.isUppercase) { return "Password must contain an uppercase letter" }
        if !password.contains(where: \.isNumber) { return "Password must contain a number" }
        return nil
    }
}

extension String {
    /// Without leading and trailing white space, read scalar by scalar (Foundation's
    /// `trimmingCharacters` goes through `NSString`).
    package var trimmingWhitespace: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
