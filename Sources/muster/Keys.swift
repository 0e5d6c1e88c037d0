import ArgumentParser
import Foundation
import Logging
import MusterCommandLine
import MusterLog
import MusterPlatform
import MusterRuntime
import MusterServices

struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Issue, revoke and list API keys.",
        subcommands: [Issue.self, Import.self, Revoke.self, List.self])

    /// What a key is for, shared by `issue` and `import`.
    struct KeyOptions: ParsableArguments {
        @Option(name: .long, help: "App the key is for: \(MusterProcess.apps.directory.keyApps.sorted().joined(separator: ", ")).")
        var app: String

        @Option(name: .long, help: "Comma-separated scopes, e.g. read:mobile,write:submit-strike (\(MusterProcess.apps.scopes.joined(separator: ", "))).")
        var scopes: String

        @Option(name: .long, help: "A note to tell keys apart (no secrets).")
        var label: String?

        /// The scopes, with `--app` and each scope checked against what exists (the lists in the error).
        func checkedScopes() throws -> [String] {
            let keyApps = MusterProcess.apps.directory.keyApps
            guard keyApps.contains(app) else {
                throw ValidationError("--app \(app) is not one of \(keyApps.sorted().joined(separator: ", "))")
            }
            let list = scopes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // Only what the app declares (its own scopes and the shared services'): a PoP key
            // cannot moderate OPL, an OFFLEASH key cannot administer the platform.
            let allowed = MusterProcess.apps.keyScopes.allowed(forKeyOf: app)
            for scope in list where !allowed.contains(scope) {
                let known = MusterProcess.apps.scopes.contains(scope) ? "is not one of \(app)'s" : "is unknown"
                throw ValidationError("scope \(scope) \(known); a \(app) key may carry: \(allowed.sorted().joined(separator: ", "))")
            }
            return list
        }

        /// The issued event for `key`, with these options' app, scopes and label, checked by the
        /// event's own rules.
        func issued(_ key: String, keyId: String, defaultLabel: String? = nil, issuedBy: String) throws -> APIKeyIssued {
            let event = APIKeyIssued(keyId: keyId, app: app, scopes: try checkedScopes(), keyHash: APIKey.hash(key),
                                     keyPrefix: APIKey.prefix(key), label: label ?? defaultLabel, issuedBy: issuedBy)
            do { try event.validate() } catch { throw ValidationError("\(error)") }
            return event
        }
    }

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a key and print it once. Only its SHA-256 goes into the log.")

        @OptionGroup var options: KeyOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let (key, keyId) = APIKey.generate(app: options.app)
            let event = try options.issued(key, keyId: keyId, issuedBy: "cli:\(NSUserName())")
            try await common.withLog { log, _, _ in
                let result = try await log.append(event, options: .init(expected: .noEvents, actor: "cli"))
                print(key)
                printError("issued \(keyId) for \(event.app) with scopes \(event.scopes.joined(separator: ",")) (sequence \(result.sequence)); the key is shown only now")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a key made elsewhere (one a published client ships), read from standard input.",
            discussion: "The key must start with `<app>_`. Only its SHA-256 goes into the log; the key is never printed. Importing the same key twice is refused.")

        @OptionGroup var options: KeyOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let app = options.app
            _ = try options.checkedScopes() // a wrong --app or scope is said before a key is read
            let key = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
            guard APIKey.isWellFormed(key), key.hasPrefix(app + "_") else {
                throw ValidationError("standard input must hold one key: \(app)_ followed by 64 lowercase hex digits")
            }
            let keyId = APIKey.importedID(for: key)
            let event = try options.issued(key, keyId: keyId, defaultLabel: "imported", issuedBy: "cli:\(NSUserName()):import")
            try await common.withLog { log, _, _ in
                do {
                    let result = try await log.append(event, options: .init(expected: .noEvents, actor: "cli"))
                    print("imported \(keyId) (\(event.keyPrefix)…) for \(app) with scopes \(event.scopes.joined(separator: ",")) (sequence \(result.sequence))")
                } catch let error as AppendError where error.code == .conflict {
                    throw CommandFailure("this key was imported before as \(keyId) (`muster keys list` shows whether it is active)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key by its id (key_…).")

        @Argument(help: "Key id, as `muster keys list` shows it.")
        var keyId: String

        @Option(name: .long, help: "Why it is revoked.")
        var reason: String = "revoked by operator"

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let event = APIKeyRevoked(keyId: keyId, reason: reason, revokedBy: "cli:\(NSUserName())")
            do { try event.validate() } catch { throw ValidationError("\(error)") }
            try await common.withLog { log, _, _ in
                guard let last = try await log.lastSequence(app: "platform", aggregate: "apikey", id: keyId) else {
                    throw CommandFailure("no key \(keyId) in the log")
                }
                let result = try await log.append(event, options: .init(expected: .at(last), actor: "cli"))
                print("revoked \(keyId) (sequence \(result.sequence))")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys, folded from the log (no server needed).")

        @Flag(name: .long, help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await common.withLog { log, _, logger in
                let scratch = SnapshotStore(directory: FileManager.default.temporaryDirectory
                    .appendingPathComponent("muster-keys-\(UUID().uuidString)"))
                defer { try? FileManager.default.removeItem(at: scratch.directory) }
                let snapshot = try await ProjectionRunner<KeysProjection>.rebuild(log: log, store: scratch, logger: logger) { _ in }
                let keys = snapshot.state.keys.values.sorted { $0.sequence < $1.sequence }
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(keys), as: UTF8.self))
                    return
                }
                print("KEY ID                PREFIX     APP       STATUS    SCOPES")
                for key in keys {
                    let status = key.revokedAt == nil ? "active" : "revoked"
                    print([key.keyId.padding(toLength: 22, withPad: " ", startingAt: 0),
                           key.keyPrefix.padding(toLength: 11, withPad: " ", startingAt: 0),
                           key.app.padding(toLength: 10, withPad: " ", startingAt: 0),
                           status.padding(toLength: 10, withPad: " ", startingAt: 0),
                           key.scopes.joined(separator: ",")].joined())
                }
            }
        }
    }
}
