import Foundation
import HTTPTypes
import MusterPlatform
import MusterRuntime

extension FuzzTarget {
    /// What a caller controls on the way to the access checks: request heads as the connection
    /// gate scans them (in reads split anywhere), `X-Forwarded-For` behind a trusted proxy, a
    /// `MUSTER_TRUSTED_PROXIES` value, an `X-Device-Secret`, and the `Cookie` and `Authorization`
    /// headers the authentication step reads.
    static func access(_ bytes: [UInt8]) {
        // The head scanner: the same bytes in one read and in two agree, and what it passes is
        // within the limits it states.
        var whole = RequestHeadScanner()
        let once = bytes.withUnsafeBytes { whole.scan($0) }
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        var split = RequestHeadScanner()
        var twice = bytes[..<cut].withUnsafeBytes { split.scan($0) }
        if case .more = twice {
            twice = bytes[cut...].withUnsafeBytes { split.scan($0) }
            if case .complete(let consumed) = twice { twice = .complete(consumed: consumed + cut) }
        }
        require(once == twice, "a head split at \(cut) scans as \(twice), whole as \(once)")
        if case .complete(let consumed) = once {
            require(consumed <= RequestHeadScanner.maxBytes, "a passed head is within the byte limit")
            require(bytes[..<consumed].filter { $0 == UInt8(ascii: "\n") }.count <= RequestHeadScanner.maxFields + 2, "a passed head is within the field limit")
        }

        let text = String(decoding: bytes, as: UTF8.self)
        let proxies = TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8, ::1") ?? TrustedProxies()
        let client = proxies.clientAddress(peer: "10.1.2.3", forwardedFor: text)
        require(client == "10.1.2.3" || text.contains(client), "the client is the peer or named in the header: \(client)")
        require(proxies.clientAddress(peer: "203.0.113.7", forwardedFor: text) == "203.0.113.7", "an untrusted peer's header is never read")
        if let parsed = TrustedProxies(parsing: text) { _ = parsed.contains(text) }
        if DeviceSecret.matches(text, DeviceSecret.hash(text)) {
            require(DeviceSecret.isWellFormed(text), "only a well-formed secret matches")
        }
        // The page session's credential is a non-empty part of a Cookie header as stored, with no `;`.
        var headers = HTTPFields()
        headers[.cookie] = text
        if let credential = PageSession.credential(in: headers) {
            let stored = headers[values: .cookie].joined(separator: "\n")
            require(!credential.isEmpty && !credential.contains(";") && stored.contains(credential), "a page credential from \(stored.prefix(80))")
        }
        // A form's token is the session's digest: 64 hex digits, whatever the cookie held.
        if let credential = PageSession.credential(in: headers) {
            let token = PageForms.token(session: credential)
            require(token.utf8.count == 64 && token.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }, "a form token from \(text.prefix(80))")
        }
        if let signIn = PageForms.cookie(PageForms.signInCookie, in: headers) {
            require(!signIn.isEmpty && !signIn.contains(";"), "a sign-in cookie from \(text.prefix(80))")
        }
    }
}
