import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterShieldAI
import MusterTesting
import Testing

@Suite("ShieldAI document scans: stored, listed with their text, deleted for good")
struct DocumentScanTests {
    /// A real 1×1 PNG.
    static let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]).base64EncodedString()

    static func body(kind: String = "deed", text: String = "WARRANTY DEED Parcel 12-345 Jane Q. Public", image: String = png,
                     type: String = "image/png") -> String {
        #"{"kind": "\#(kind)", "ocrText": "\#(text)", "contentType": "\#(type)", "image": "\#(image)"}"#
    }

    @Test func aDeletedDocumentsImageIsErasedAndItsTextUnreadableForGood() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "shield", app: "shieldai", name: "ShieldAI")
            let sam = try await people.register(People.Registration(orgSlug: "shield", email: "sam@example.com", firstName: "Sam", lastName: "Safe",
                                                                    phone: nil, password: "Shielded2026"), policy: People.TokenPolicy(app: "shieldai", signUpRole: "customer"))
            let bearer: HTTPFields = [.authorization: "Bearer \(sam.accessToken)"]
            let created = try await app.request("/api/shieldai/documents", method: .post, headers: bearer, json: Self.body())
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["documentId"] as? String, "\(created.status): \(created.text)")
            let second = try await app.request("/api/shieldai/documents", method: .post, headers: bearer, json: Self.body(kind: "id", text: "DRIVER LICENSE"))
            let listed = try await app.request("/api/shieldai/documents", headers: bearer)
            let documents = try #require(try JSONSerialization.jsonObject(with: Data(listed.text.utf8)) as? [[String: Any]])
            #expect(documents.count == 2 && documents.first?["ocrText"] as? String == "WARRANTY DEED Parcel 12-345 Jane Q. Public")

            let scanned = try #require(try await app.log.read(filter: "events.shieldai.document.*.scanned.v1").first?.payload as? DocumentScanned)
            #expect(!scanned.sealedText.contains("WARRANTY"), "the log holds the text sealed")
            let store = try await Blobs.shared(in: app.env.environment).bucket(Blobs.images)

            // Two documents share the image: deleting one keeps it for the other.
            #expect(try await app.request("/api/shieldai/documents/\(id)", method: .delete, headers: bearer).status == .noContent)
            #expect(try await store.info(scanned.image.digest) != nil)
            #expect(try await people.vault.open(String.self, scanned.sealedText, for: id) == nil, "the text's key is gone")
            let otherID = try #require(second.json["documentId"] as? String, "\(second.status): \(second.text)")
            #expect(try await app.request("/api/shieldai/documents/\(otherID)", method: .delete, headers: bearer).status == .noContent)
            #expect(try await store.info(scanned.image.digest) == nil, "the last holder's delete erases the image")
            #expect(try await app.request("/api/shieldai/documents", headers: bearer).text == "[]")
            #expect(try await app.request("/api/shieldai/documents/\(id)", method: .delete, headers: bearer).status == .notFound)
        }
    }

    @Test func hostileScansAreClearErrorsAndStoreNothing() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let key = try await app.key(app: "shieldai", [DocumentRoutes.scope, DeviceRoutes.registerScope])
            let device = try #require(RegisteredDevice(try await app.request("/api/devices", method: .post, key: key, json: """
            {"token": "\(String(repeating: "cd", count: 32))", "platform": "ios", "bundleId": "com.kordant.shieldai"}
            """)))
            var headers = device.headers
            headers[.apiKey] = key
            let cases: [(String, HTTPResponse.Status, String)] = [
                (Self.body(kind: "passport-photo"), .unprocessableContent, "kind"),
                (Self.body(image: Data("just text".utf8).base64EncodedString()), .unprocessableContent, "JPEG, PNG or HEIC"),
                (Self.body(image: Self.jpeg), .unprocessableContent, "contentType says image/png but the image is image/jpeg"),
                (Self.body(image: "%%%not base64%%%"), .unprocessableContent, "base64"),
                (Self.body(image: ""), .unprocessableContent, "image"),
                (Self.body(text: String(repeating: "x", count: 60_000)), .unprocessableContent, "ocrText"),
                (#"{"kind": "deed"}"#, .badRequest, "image is required"),
            ]
            for (body, status, message) in cases {
                let response = try await app.request("/api/shieldai/documents", method: .post, headers: headers, json: body)
                #expect(response.status == status, "\(body.prefix(80)) → \(response.text)")
                #expect(response.errorMessage.contains(message), "\(body.prefix(80)) → \(response.text)")
            }
            let jpeg = try await app.request("/api/shieldai/documents", method: .post, headers: headers, json: Self.body(image: Self.jpeg, type: "image/jpeg"))
            #expect(jpeg.status == .created && jpeg.json["contentType"] as? String == "image/jpeg", "\(jpeg.text)")
            #expect(try await app.log.read(filter: "events.shieldai.document.>").count == 1)

            // Hole 2 of the authorization review: another installation that registers this one's
            // push token gets a device of its own, and its id and secret open none of these scans.
            let thief = try #require(RegisteredDevice(try await app.request("/api/devices", method: .post, key: key, json: """
            {"token": "\(String(repeating: "cd", count: 32))", "platform": "ios", "bundleId": "com.kordant.shieldai"}
            """)))
            #expect(thief.id != device.id)
            var stolen = thief.headers
            stolen[.apiKey] = key
            #expect(try await app.request("/api/shieldai/documents", headers: stolen).text == "[]")
            stolen[HTTPField.Name("X-Device-Id")!] = device.id
            #expect(try await app.request("/api/shieldai/documents", headers: stolen).status == .notFound)
            #expect(try await app.request("/api/shieldai/documents", headers: [.apiKey: key, HTTPField.Name("X-Device-Id")!: device.id]).status == .badRequest)
            let mine = try await app.request("/api/shieldai/documents", headers: headers)
            #expect(mine.text.contains("deed") || mine.text.contains("\"kind\""), "\(mine.text)")
        }
    }
}
