import Foundation
package import MusterEvents
package import MusterLog
import MusterNATS
package import MusterPlatform
package import MusterRuntime
import MusterPush

/// Why a voice enrollment was refused, in domain terms; `VoiceErrorCode+HTTP` gives the answers.
package typealias VoiceError = DomainError<VoiceErrorCode>

package enum VoiceErrorCode: Sendable, Hashable {
    /// The audio breaks a rule (`WAVInspection.Problem.rule`).
    case invalidAudio(rule: String)
    case tooLarge
    case unsupportedType
    case unknownEnrollment
    /// The device the app's key enrolls for is not one of its registered devices.
    case unknownDevice
}

/// ShieldAI's voice enrollments: a checked WAV is stored in the audio bucket, recorded as an event,
/// and its owner's devices get a push that opens the enrollment screen.
package struct VoiceEnrollments: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<ShieldAIProjection>
    let devices: ProjectionRunner<DevicesProjection>
    let blobs: Blobs
    static let settle: Duration = .seconds(3)

    package init(log: EventLog, runner: ProjectionRunner<ShieldAIProjection>, devices: ProjectionRunner<DevicesProjection>, blobs: Blobs) {
        self.log = log
        self.runner = runner
        self.devices = devices
        self.blobs = blobs
    }

    /// Checks, stores and records one enrollment. With an idempotency key a retry is the same enrollment.
    package func enroll(_ wav: [UInt8], owner: Owner, idempotencyKey: String?) async throws -> ShieldAIProjection.Enrollment {
        let audio: WAVInspection.Audio
        do {
            audio = try WAVInspection.inspect(wav)
        } catch {
            throw VoiceError(.invalidAudio(rule: error.rule), "audio \(error)")
        }
        if let deviceId = owner.deviceId {
            guard await devices.read({ $0.devices[deviceId]?.app == "shieldai" }) else {
                throw VoiceError(.unknownDevice, "device \(deviceId.prefix(40)) is not a registered ShieldAI device")
            }
        }
        let id = Self.enrollmentID(owner: owner, idempotencyKey: idempotencyKey)
        if idempotencyKey != nil, let existing = await runner.read({ $0.enrollments[id] }) { return existing }
        let info = try await blobs.bucket(Blobs.audio).put(wav, type: "audio/wav")
        let enrolled = VoiceEnrolled(enrollmentId: id, owner: owner,
                                     audio: BlobRef(bucket: Blobs.audio, digest: info.digest, size: info.size, type: "audio/wav"),
                                     durationMs: audio.durationMs, sampleRate: audio.sampleRate)
        let actor = owner.actor
        let result = try await log.append(enrolled, options: AppendOptions(idempotencyKey: idempotencyKey.map { "voice:\(actor):\($0)" },
                                                                          expected: .noEvents, actor: actor))
        // Ready: the owner's devices open the enrollment screen from the push.
        let push = PushRequested(pushId: "psh_" + String(id.dropFirst(4)), app: "shieldai",
                                 audience: owner.personId.map { PushAudience(personIds: [$0]) } ?? PushAudience(deviceIds: [owner.deviceId ?? ""]),
                                 message: PushMessage(title: "Voice enrolled", body: "Your voiceprint is ready. Tap to review it.",
                                                      screen: "enrollment", id: id),
                                 collapseId: "enrollment", requestedBy: "system:shieldai")
        // The enrollment is stored either way; a push that could not be recorded is not a reason to refuse it.
        _ = try? await log.append(push, options: AppendOptions(idempotencyKey: "voice-push:\(id)", expected: .noEvents, actor: "system:shieldai"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        guard let enrollment = await runner.read({ $0.enrollments[id] }) else {
            return ShieldAIProjection.Enrollment(enrollment: enrolled, createdAt: Timestamp.string(Date()))
        }
        return enrollment
    }

    /// Erases the audio of every enrollment of a forgotten person (unless another enrollment holds
    /// the same bytes) and records it.
    func erase(personId: String) async throws {
        let enrollments = await runner.read { state in state.enrollments.values.filter { $0.enrollment.owner.personId == personId } }
        for found in enrollments {
            let id = found.enrollment.enrollmentId, digest = found.enrollment.audio.digest
            let shared = await runner.read { state in
                state.enrollments.values.contains { $0.enrollment.enrollmentId != id && $0.enrollment.audio.digest == digest }
            }
            if !shared { try await blobs.bucket(Blobs.audio).erase(digest) }
            let result = try await log.append(VoiceErased(enrollmentId: id),
                                              options: AppendOptions(idempotencyKey: "voice-erased:\(id)", actor: "system:shieldai"))
            _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        }
    }

    package func enrollment(_ id: String, for caller: Principal) async throws -> ShieldAIProjection.Enrollment {
        guard let found = await runner.read({ $0.enrollments[id] }), Access.permits(caller, found.enrollment.owner.resource) else {
            throw VoiceError(.unknownEnrollment, "no enrollment \(id.prefix(40))")
        }
        return found
    }

    static func enrollmentID(owner: Owner, idempotencyKey: String?) -> String {
        idempotencyKey.map { HexIDs.derived("enr_", from: owner.personId ?? "", owner.deviceId ?? "", $0) } ?? HexIDs.random("enr_")
    }
}
