import Foundation
import Hummingbird
import MusterEvents
import MusterLog
import MusterNATS
import MusterRuntime

/// The issue form's fields, checked as `muster keys issue` checks its options.
struct KeyForm: Decodable {
    var app: String?
    var scopes: String?
    var label: String?
    var reason: String?

    /// The form as sent; one that does not decode is an empty one, which `issued` refuses with why.
    static func decode(_ request: Request) async throws -> KeyForm {
        (try? await PageForms.decode(KeyForm.self, from: request, limit: 16 * 1024)) ?? KeyForm()
    }

    func issued(key: String, keyId: String, issuedBy: String, scopes allowedScopes: KeyScopes) throws -> APIKeyIssued {
        let (app, scopes) = (app ?? "", scopes ?? "")
        let list = scopes.split(whereSeparator: { $0 == "," || $0 == " " || $0.isNewline }).map(String.init).filter { !$0.isEmpty }
        guard !list.isEmpty else { throw ConsoleError(message: "Name at least one scope.") }
        let allowed = allowedScopes.allowed(forKeyOf: app)
        guard !allowed.isEmpty else { throw ConsoleError(message: "No app \(app.prefix(40)) takes keys.") }
        for scope in list where !allowed.contains(scope) {
            throw ConsoleError(message: "A \(app) key may not carry \(scope.prefix(60)); it may carry: \(allowed.sorted().joined(separator: ", ")).")
        }
        let event = APIKeyIssued(keyId: keyId, app: app, scopes: list, keyHash: APIKey.hash(key), keyPrefix: APIKey.prefix(key),
                                 label: label.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }, issuedBy: issuedBy)
        do { try event.validate() } catch { throw ConsoleError(message: "\(error)") }
        return event
    }
}

struct OverviewView: Sendable {
    struct Stream: Sendable {
        let name: String
        let messages: UInt64
        let bytes: String
        let firstSeq: UInt64
        let lastSeq: UInt64
        let replicas: String
    }

    struct App: Sendable {
        let name: String
        let kind: String
        let roles: String
        let scopes: String
    }

    struct Projection: Sendable {
        let name: String
        let version: Int
        let checkpoint: UInt64
        let lag: UInt64
        let state: String
        let deadLettered: Int
    }

    let streams: [Stream]
    let streamProblem: String?
    let apps: [App]
    let projections: [Projection]

    static func make(environment: MusterEnvironment) async -> OverviewView {
        var streams: [Stream] = [], problem: String?
        for name in [environment.log.configuration.eventsStream, environment.log.configuration.dlqStream] {
            do {
                let info = try await environment.jetStream.streamInfo(name)
                streams.append(Stream(name: name, messages: info.state.messages, bytes: ByteCountFormatter.string(fromByteCount: Int64(info.state.bytes), countStyle: .binary),
                                      firstSeq: info.state.firstSeq, lastSeq: info.state.lastSeq,
                                      replicas: info.cluster.map { "leader \($0.leader ?? "none"), \($0.replicas?.count ?? 0) more" } ?? "one server"))
            } catch {
                problem = "NATS did not answer for \(name): \(error)"
            }
        }
        let apps = environment.apps.entries.values.sorted { $0.name < $1.name }.map { entry in
            App(name: entry.name, kind: "\(entry.kind)", roles: entry.roles.sorted().joined(separator: ", "),
                scopes: environment.keyScopes.allowed(forKeyOf: entry.name).sorted().joined(separator: ", "))
        }
        let projections = await environment.projectionReports().map {
            Projection(name: $0.name, version: $0.version, checkpoint: $0.checkpoint, lag: $0.lag,
                       state: !$0.opened ? "opening" : $0.caughtUp ? "caught up" : "behind", deadLettered: $0.deadLettered)
        }
        return OverviewView(streams: streams, streamProblem: problem, apps: apps, projections: projections)
    }
}

struct KeysView: Sendable {
    struct Key: Sendable {
        let keyId: String
        let app: String
        let scopes: String
        let label: String
        let issued: String
        let revoked: String?
    }

    struct Issued: Sendable {
        let key: String
        let keyId: String
    }

    struct App: Sendable {
        let name: String
        let scopes: String
    }

    let keys: [Key]
    let apps: [App]
    let issued: Issued?

    static func make(keys directory: APIKeyDirectory, environment: MusterEnvironment, issued: Issued?) async -> KeysView {
        let shown = await directory.runner.read { state in
            state.keys.values.sorted { $0.sequence > $1.sequence }.map { key in
                Key(keyId: key.keyId, app: key.app, scopes: key.scopes.joined(separator: ", "), label: key.label ?? "",
                    issued: "\(key.issuedAt.prefix(16)) by \(key.issuedBy ?? "?")",
                    revoked: key.revokedAt.map { "\($0.prefix(16)) (\(key.revokedReason ?? "no reason"))" })
            }
        }
        let apps = environment.apps.keyApps.sorted().map { App(name: $0, scopes: environment.keyScopes.allowed(forKeyOf: $0).sorted().joined(separator: ", ")) }
        return KeysView(keys: shown, apps: apps, issued: issued)
    }
}

struct DeadLettersView: Sendable {
    struct Letter: Sendable {
        let sequence: UInt64
        let consumer: String
        let originSubject: String
        let originSequence: UInt64?
        let reason: String
        let payload: String
        let replayable: Bool
    }

    let letters: [Letter]
    let total: UInt64

    static func make(log: EventLog, limit: Int, replays: DeadLetterReplays) async throws -> DeadLettersView {
        let info: StreamInfo
        do { info = try await log.jetStream.streamInfo(log.configuration.dlqStream) } catch {
            throw APIError(.serviceUnavailable, "NATS did not answer for the DLQ stream: \(error)")
        }
        var letters: [Letter] = []
        var sequence = info.state.lastSeq
        // Newest first; deleted (replayed) sequences are skipped.
        while sequence >= max(info.state.firstSeq, 1), letters.count < limit {
            if let letter = try? await letter(log: log, sequence: sequence, replays: replays) { letters.append(letter) }
            sequence -= 1
        }
        return DeadLettersView(letters: letters, total: info.state.messages)
    }

    static func letter(log: EventLog, sequence: UInt64, replays: DeadLetterReplays) async throws -> Letter {
        let stored: StoredMessage
        do { stored = try await log.jetStream.getMessage(stream: log.configuration.dlqStream, sequence: sequence) } catch {
            throw APIError(.notFound, "no dead letter \(sequence)")
        }
        let consumer = stored.headers[DeadLetterHeader.consumer] ?? "?"
        let origin = stored.headers[DeadLetterHeader.originSequence].flatMap { UInt64($0) }
        let text = String(decoding: stored.payload.prefix(64 * 1024), as: UTF8.self)
        return Letter(sequence: sequence, consumer: consumer, originSubject: stored.headers[DeadLetterHeader.originSubject] ?? stored.subject,
                      originSequence: origin, reason: stored.headers[DeadLetterHeader.reason] ?? "", payload: text,
                      replayable: origin != nil && replays.processor(consumer) != nil)
    }
}
