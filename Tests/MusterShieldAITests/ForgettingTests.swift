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

@Suite("ShieldAI and forgetting a person: recordings and scans go with them")
struct ForgettingTests {
    @Test func aForgottenPersonsVoiceAndScansAreErasedAndOthersStay() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let people = People.shared(in: app.env.environment)
            try await people.createOrganisationPatiently(slug: "shield", app: "shieldai", name: "ShieldAI")
            func signUp(_ email: String) async throws -> People.SignedIn {
                try await people.register(People.Registration(orgSlug: "shield", email: email, firstName: "Sam", lastName: "Safe", phone: nil,
                                                              password: "Shielded2026"), policy: People.TokenPolicy(app: "shieldai", signUpRole: "customer"))
            }
            let sam = try await signUp("sam@example.com"), kim = try await signUp("kim@example.com")
            let speech = try await Recordings.bytes("speech")
            for person in [sam, kim] {
                let bearer: HTTPFields = [.authorization: "Bearer \(person.accessToken)"]
                #expect(try await VoiceEnrollmentTests.upload(app, speech, headers: bearer).status == .created)
                let scan = DocumentScanTests.body(kind: "id", text: "DRIVER LICENSE \(person.account.email)")
                #expect(try await app.request("/api/shieldai/documents", method: .post, headers: bearer, json: scan).status == .created)
            }
            let scans = try await app.log.read(filter: "events.shieldai.document.*.scanned.v1").compactMap { $0.payload as? DocumentScanned }
            let enrolled = try await app.log.read(filter: "events.shieldai.voice.*.enrolled.v1").compactMap { $0.payload as? VoiceEnrolled }
            let samsScan = try #require(scans.first { $0.owner.personId == sam.account.personId })
            let samsVoice = try #require(enrolled.first { $0.owner.personId == sam.account.personId })
            let blobs = Blobs.shared(in: app.env.environment)
            let (images, audio) = (try await blobs.bucket(Blobs.images), try await blobs.bucket(Blobs.audio))

            // Sam and Kim recorded the same words and scanned the same picture: bytes both hold stay.
            try await people.forget(sam.account.personId, requestedBy: "cli:test")
            let runner = app.env.environment.projections.runner(ShieldAIProjection.self)
            try await eventually("Sam's recordings and scans are gone") {
                await runner.read { state in
                    !state.documents.values.contains { $0.scan.owner.personId == sam.account.personId }
                        && !state.enrollments.values.contains { $0.enrollment.owner.personId == sam.account.personId }
                }
            }
            #expect(try await people.vault.open(String.self, samsScan.sealedText, for: samsScan.documentId) == nil, "the scan's text key is gone")
            #expect(try await images.info(samsScan.image.digest) != nil, "Kim's scan holds the same image")
            #expect(try await audio.info(samsVoice.audio.digest) != nil, "Kim's enrollment holds the same audio")
            let kimsBearer: HTTPFields = [.authorization: "Bearer \(kim.accessToken)"]
            let kims = try await app.request("/api/shieldai/documents", headers: kimsBearer)
            #expect(kims.text.contains("DRIVER LICENSE kim@example.com"), "\(kims.text)")

            // Kim goes too: now nobody holds the bytes, and they are erased.
            try await people.forget(kim.account.personId, requestedBy: "cli:test")
            try await eventually("Kim's recordings and scans are gone") {
                await runner.read { $0.documents.isEmpty && $0.enrollments.isEmpty }
            }
            #expect(try await images.info(samsScan.image.digest) == nil)
            #expect(try await audio.info(samsVoice.audio.digest) == nil)
            #expect(try await app.log.read(filter: "events.shieldai.voice.*.erased.v1").count == 2)
        }
    }
}
