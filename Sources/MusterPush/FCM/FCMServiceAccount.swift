package import CryptoExtras
package import Foundation
import MusterJSON

/// A Google service account (the JSON file Firebase's console gives): who signs the JWT that is
/// exchanged for an FCM access token, and with which RSA key (RS256).
package struct FCMServiceAccount: Sendable {
    package let projectID: String
    package let clientEmail: String
    package let tokenURI: String
    let key: _RSA.Signing.PrivateKey
    /// What checks its assertions (a stand-in does).
    package var publicKey: _RSA.Signing.PublicKey { key.publicKey }

    struct File: Decodable {
        var project_id: String
        var client_email: String
        var private_key: String
        var token_uri: String?
    }

    package init(json: Data) throws {
        let file = try JSONDecoder().decode(File.self, from: json)
        projectID = file.project_id
        clientEmail = file.client_email
        tokenURI = file.token_uri ?? "https://oauth2.googleapis.com/token"
        key = try _RSA.Signing.PrivateKey(pemRepresentation: file.private_key)
    }

    package init(contentsOf file: String) throws {
        try self.init(json: try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// The signed assertion (RS256) for Google's token endpoint, valid an hour from `now`.
    func assertion(now: Date) throws -> String {
        let iat = Int64(now.timeIntervalSince1970)
        let header = #"{"alg":"RS256","typ":"JWT"}"#
        let claims = try JSONSerialization.data(withJSONObject: [
            "iss": clientEmail, "scope": "https://www.googleapis.com/auth/firebase.messaging", "aud": tokenURI, "iat": iat, "exp": iat + 3600,
        ], options: [.sortedKeys])
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims))
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}
