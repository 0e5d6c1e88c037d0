package import Foundation

/// A JetStream key-value bucket (`KV_<bucket>` stream, `$KV.<bucket>.<key>` subjects).
package struct KeyValue: Sendable {
    package let jetStream: JetStream
    package let bucket: String

    package struct Entry: Sendable, Equatable {
        package var key: String
        package var value: Data
        package var revision: UInt64
    }

    var streamName: String { "KV_\(bucket)" }
    func subject(_ key: String) -> String { "$KV.\(bucket).\(key)" }

    /// Opens the bucket, creating it (or updating its history) when needed.
    /// - Parameter erasable: lets `erase` delete single values (KV buckets deny that by default).
    /// - Parameter maxAge: values older than this are dropped by the server (short-lived state).
    package static func open(_ jetStream: JetStream, bucket: String, history: Int = 1, replicas: Int = 1,
                            erasable: Bool = false, maxAge: Duration? = nil) async throws -> KeyValue {
        var config = StreamConfig(name: "KV_\(bucket)", subjects: ["$KV.\(bucket).>"])
        if let maxAge { config.maxAge = Int64(maxAge.components.seconds) * 1_000_000_000 }
        config.maxMsgsPerSubject = Int64(history)
        config.allowRollupHdrs = true
        config.denyDelete = !erasable
        config.allowDirect = true
        config.discard = .new
        config.duplicateWindow = 120_000_000_000
        config.numReplicas = replicas
        try await jetStream.ensureStream(config)
        return KeyValue(jetStream: jetStream, bucket: bucket)
    }

    /// Stores a value and returns its revision.
    @discardableResult
    package func put(_ key: String, _ value: Data) async throws -> UInt64 {
        try validate(key)
        return try await jetStream.publish(OutgoingMessage(subject: subject(key), payload: value)).seq
    }

    /// Stores a value only if the key has never been written; `NATSError` `.wrongLastSequence`
    /// when it has (another process got there first: read theirs).
    @discardableResult
    package func create(_ key: String, _ value: Data) async throws -> UInt64 {
        try await update(key, value, revision: 0)
    }

    /// Stores a value only if the key's latest revision is still `revision` (compare and set).
    @discardableResult
    package func update(_ key: String, _ value: Data, revision: UInt64) async throws -> UInt64 {
        try validate(key)
        let options = PublishOptions(expectedLastSubjectSequence: revision)
        return try await jetStream.publish(OutgoingMessage(subject: subject(key), payload: value, options: options)).seq
    }

    /// The latest value, or nil when the key was never written or was deleted.
    package func get(_ key: String) async throws -> Entry? {
        try validate(key)
        guard let stored = try await jetStream.lastMessage(stream: streamName, subject: subject(key)) else { return nil }
        return entry(key, stored)
    }

    /// The latest value as one of the bucket's servers has it, by direct get: cheaper than `get`
    /// for a value read far more often than written (a person's key, read at every sign-in). A key
    /// that server does not have yet (just created, on a replica behind) is asked of the leader,
    /// so a value written is never missed; a value deleted a moment ago may still be answered by
    /// a replica behind.
    package func read(_ key: String) async throws -> Entry? {
        try validate(key)
        guard let stored = try await jetStream.directGet(stream: streamName, lastBySubject: subject(key)) else { return try await get(key) }
        return entry(key, stored)
    }

    /// The stored message as the key's value: nil for a delete or purge marker.
    private func entry(_ key: String, _ stored: StoredMessage) -> Entry? {
        if let op = stored.headers["KV-Operation"], op == "DEL" || op == "PURGE" { return nil }
        return Entry(key: key, value: stored.payload, revision: stored.sequence)
    }

    /// Marks the key deleted (history is kept, as JetStream KV does).
    package func delete(_ key: String) async throws {
        try validate(key)
        var headers = NATSHeaders()
        headers["KV-Operation"] = "DEL"
        _ = try await jetStream.publish(OutgoingMessage(subject: subject(key), headers: headers, payload: Data()))
    }

    /// Removes the key and every earlier value of it from the bucket's stream (a rollup leaves
    /// only the empty purge marker), as `nats kv purge` does: what was stored is gone, not hidden.
    package func purge(_ key: String) async throws {
        try validate(key)
        var headers = NATSHeaders()
        headers["KV-Operation"] = "PURGE"
        headers["Nats-Rollup"] = "sub"
        _ = try await jetStream.publish(OutgoingMessage(subject: subject(key), headers: headers, payload: Data()))
    }

    /// Purges the key after overwriting each stored value's bytes on the server's disk (a purge
    /// alone leaves them in the stream's block files until compaction). Needs an `erasable` bucket.
    package func erase(_ key: String) async throws {
        try validate(key)
        for _ in 0..<8 { // one value per key in a bucket of history 1; a few more at most
            guard let entry = try await get(key) else { break }
            try await jetStream.deleteMessage(stream: streamName, sequence: entry.revision, erase: true)
        }
        try await purge(key)
    }

    /// The key a message of the bucket's stream is about (its subject without `$KV.<bucket>.`).
    func key(ofSubject subject: String) -> String? {
        let prefix = self.subject("")
        guard subject.hasPrefix(prefix) else { return nil }
        return String(decoding: subject.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }

    private static let allowedInKeys = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/=.")

    private func validate(_ key: String) throws {
        guard !key.isEmpty, !key.hasPrefix("."), !key.hasSuffix("."), key.allSatisfy(Self.allowedInKeys.contains) else {
            throw NATSError(.jetStreamAPI, "invalid KV key \(key.debugDescription)")
        }
    }
}
