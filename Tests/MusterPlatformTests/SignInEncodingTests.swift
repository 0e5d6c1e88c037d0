import Crypto
import Foundation
import JWTKit
import MusterJSON
@testable import MusterPlatform
import MusterRuntime
import PropertyBased
import Testing

/// Sign-in answers and access tokens are written by MusterJSON from members laid out by hand:
/// the bytes must be those Foundation's encoder writes for the same values (the apps decode the
/// answers strictly), and a token must verify and read back as it was signed.
@Suite("Sign-in answers and tokens written by hand")
struct SignInEncodingTests {
    static let text = Gen<UInt32>.value(in: 0...0x10FFFF)
        .compactMap { Unicode.Scalar($0 % 3 == 0 ? $0 % 0x80 : $0) }
        .map { Character($0) }
        .string(of: 0...12)

    /// What `JSONResponse` wrote for every answer before: Foundation's encoder, sorted keys, `/` as is.
    static func foundation(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func expectSame(_ value: some Encodable) {
        do {
            #expect(try JSONBytesEncoder().encode(value) == foundation(value))
        } catch {
            Issue.record("\(value): \(error)")
        }
    }

    static func account(_ strings: [String], phone: Bool) -> People.AccountView {
        People.AccountView(personId: strings[0], email: strings[1], firstName: strings[2], lastName: strings[3],
                           phone: phone ? strings[4] : nil, role: strings[5], orgId: strings[6])
    }

    @Test func theAnswersAreTheBytesFoundationWrites() async {
        await propertyCheck(count: 200, input: Self.text.array(of: 10...10), Gen.bool) { strings, phone in
            let account = Self.account(strings, phone: phone)
            let signedIn = People.SignedIn(accessToken: strings[7], expiresAt: Date(timeIntervalSince1970: 1_765_000_000),
                                           refreshToken: strings[8], account: account)
            let user = UserBody(account)
            Self.expectSame(user)
            Self.expectSame(SignedInBody(signedIn))
            Self.expectSame(ValidateBody(expiresAt: strings[9], user: user))
        }
    }

    @Test func theClaimsAreTheBytesFoundationWritesForAJWT() async {
        await propertyCheck(count: 200, input: Self.text.array(of: 5...5), Gen.int(in: 0...4_000_000_000), Gen.uint64()) { strings, seconds, seq in
            let claims = AccessClaims(personId: strings[0], sessionId: strings[1], orgId: strings[2], role: strings[3], app: strings[4],
                                      sequence: seq, issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds)),
                                      expiresAt: Date(timeIntervalSince1970: TimeInterval(seconds + 900)))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .secondsSince1970
            do {
                #expect(try TokenJSONEncoder().encode(claims) == encoder.encode(claims))
            } catch {
                Issue.record("\(claims): \(error)")
            }
        }
    }

    /// Signed with the hand-written JSON, verified by JWTKit's own parser: the same claims.
    @Test func aTokenSignedThisWayVerifiesAsItWasSigned() async throws {
        let key = try ES256PrivateKey(backing: P256.Signing.PrivateKey())
        let signing = await JWTKeyCollection().add(ecdsa: key, kid: "k1", serializer: DefaultJWTSerializer(jsonEncoder: TokenJSONEncoder()))
        let verifying = await JWTKeyCollection().add(ecdsa: key.publicKey, kid: "k1")
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let claims = AccessClaims(personId: "p-\"é/", sessionId: "s1", orgId: "o1", role: "customer", app: "offleash", sequence: 42,
                                  issuedAt: now, expiresAt: now.addingTimeInterval(900))
        let token = try await signing.sign(claims, kid: "k1")
        #expect(try await verifying.verify(token, as: AccessClaims.self) == claims)
        let header = try #require(token.split(separator: ".").first.flatMap { Base64URL.decode($0) })
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"k1","typ":"JWT"}"#)
    }

    /// A header with more than strings is left to Foundation's encoder, as JWTKit would write it.
    @Test func aHeaderOfOtherFieldsIsWrittenAsJWTKitWould() throws {
        let header: JWTHeader = ["alg": .string("ES256"), "n": .int(3)]
        #expect(TokenJSONEncoder.strings(of: header) == nil)
        let written = try JSONSerialization.jsonObject(with: TokenJSONEncoder().encode(header)) as? [String: Any]
        #expect(written?["n"] as? Int == 3 && written?["alg"] as? String == "ES256")
    }
}
