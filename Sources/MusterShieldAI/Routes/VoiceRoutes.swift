import Foundation
import HTTPTypes
package import Hummingbird
import MusterEvents
package import MusterPlatform
package import MusterRuntime
import NIOCore

/// `POST /api/shieldai/voice-enrollments` (the WAV as the body, `Content-Type: audio/wav`) and
/// `GET /api/shieldai/voice-enrollments/{id}`; tRPC `voiceprint.createEnrollment` takes the WAV as
/// base64 (`{"audio": "..."}`). Signed in with a person's token, or with the app's key (scope
/// `voice:enroll`) with `X-Device-Id` and `X-Device-Secret`: the registered installation it enrolls
/// from, proven by the secret its registration answered (the id alone opens nothing).
package enum VoiceRoutes {
    package static let scope = "voice:enroll"
    static let wavTypes: Set<String> = ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"]

    static let access = AccessRule.keyOrPerson(ShieldAIApp.appName, scope: scope)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, voices: VoiceEnrollments, devices: Devices) {
        routes.post("/api/shieldai/voice-enrollments", access: access) { request, context in
            let owner = try await owner(context, devices: devices)
            let type = request.headers[.contentType].map { $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type, wavTypes.contains(type) else {
                throw VoiceError(.unsupportedType, "send the recording as the body with Content-Type: audio/wav")
            }
            let wav = try await readWAV(request.body)
            let enrollment = try await voices.enroll(wav, owner: owner.owner, idempotencyKey: request.headers[.idempotencyKey])
            return try JSONResponse.make(.created, EnrollmentAnswer(enrollment))
        }
        routes.get("/api/shieldai/voice-enrollments/{id}", access: access) { _, context in
            let owner = try await owner(context, devices: devices)
            return try JSONResponse.make(.ok, EnrollmentAnswer(try await voices.enrollment(try context.parameters.require("id"), for: owner.principal)))
        }
        TRPC.mutation("voiceprint.createEnrollment", on: routes, access: access, maxBody: WAVInspection.maxBytes * 4 / 3 + 1024,
                      authorize: { try await owner($0, devices: devices) }) {
            (input: TRPCEnrollment, owner, request) in
            guard input.audio.utf8.count <= WAVInspection.maxBytes * 4 / 3 + 4, let data = Data(base64Encoded: input.audio) else {
                throw VoiceError(.invalidAudio(rule: "riff-wave"), "audio must be the WAV file in base64")
            }
            return EnrollmentAnswer(try await voices.enroll(Array(data), owner: owner.owner, idempotencyKey: request.headers[.idempotencyKey]))
        }
    }

    /// Reads the body as it arrives: refuses a wrong header (8 kHz, stereo, not WAV) from its first
    /// bytes and anything past the size of 60 seconds without reading on.
    static func readWAV(_ body: RequestBody) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        var headerChecked = false
        for try await buffer in body {
            guard bytes.count + buffer.readableBytes <= WAVInspection.maxBytes else {
                throw VoiceError(.tooLarge, "the recording is larger than 60 seconds of 16 kHz mono 16-bit audio")
            }
            bytes += buffer.readableBytesView
            if !headerChecked {
                do {
                    headerChecked = try WAVInspection.checkHeader(bytes) ?? false
                } catch {
                    throw VoiceError(.invalidAudio(rule: error.rule), "audio \(error)")
                }
            }
        }
        return bytes
    }

    /// The person of a ShieldAI token, or (with ShieldAI's key) the registered installation that
    /// `X-Device-Id` names and `X-Device-Secret` proves; the route's rule refused another app's
    /// key or token (401).
    static func owner(_ context: MusterRequestContext, devices: Devices) async throws -> Asking {
        let caller = try DeviceRoutes.caller(context)
        if let personId = caller.personId { return Asking(owner: Owner(personId: personId), principal: context.principal) }
        guard let claimed = caller.deviceId, caller.secret != nil else {
            throw APIError(.badRequest, "with an app key, send X-Device-Id and X-Device-Secret: the installation's registration answered both")
        }
        let device = try await devices.device(claimed, for: caller) // 404 unless the secret is this device's
        return Asking(owner: Owner(deviceId: device.deviceId), principal: .device(app: device.app, deviceId: device.deviceId))
    }
}

struct TRPCEnrollment: Decodable, Sendable {
    /// The WAV file, base64.
    var audio: String
}

struct EnrollmentAnswer: Encodable, Sendable {
    var enrollmentId: String
    /// `ready`: stored and checked; the app's push opens it.
    var status = "ready"
    var durationMs: Int
    var sampleRate: Int
    var sizeBytes: Int
    var createdAt: String

    init(_ enrollment: ShieldAIProjection.Enrollment) {
        enrollmentId = enrollment.enrollment.enrollmentId
        durationMs = enrollment.enrollment.durationMs
        sampleRate = enrollment.enrollment.sampleRate
        sizeBytes = enrollment.enrollment.audio.size
        createdAt = enrollment.createdAt
    }
}
