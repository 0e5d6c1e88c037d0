package import Crypto
package import Foundation
import MusterJSON

/// The team's token-signing key (the `.p8` file from Apple's developer site) and the provider
/// tokens it signs: ES256 JWTs with the key id in the header and the team and issue time as claims.
package struct APNsSigningKey: Sendable {
    package let keyID: String
    package let teamID: String
    let key: P256.Signing.PrivateKey

    package init(pem: String, keyID: String, teamID: String) throws {
        key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        self.keyID = keyID
        self.teamID = teamID
    }

    package init(contentsOf file: String, keyID: String, teamID: String) throws {
        try self.init(pem: try String(contentsOfFile: file, encoding: .utf8), keyID: keyID, teamID: teamID)
    }

    /// A provider token issued at `date` (whole seconds, as Apple reads `iat`).
    package func token(issuedAt date: Date) throws -> String {
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims = #"{"iss":"\#(teamID)","iat":\#(Int64(date.timeIntervalSince1970))}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    package var publicKey: P256.Signing.PublicKey { key.publicKey }
}
