import _NIOFileSystem
import Crypto
package import Foundation
import MusterEvents
package import MusterNATS
package import MusterPlatform
import MusterRuntime
package import NIOCore

/// Photos and receipts, uploaded resumably: an upload is a file in the data folder that grows by
/// appends at the offset the server reports, with its owner and type beside it (so an upload
/// survives a restart). Its bytes also go on to the object store as they arrive (hashed on the
/// way), so completing it only names them by their SHA-256: nothing is read back. The same photo
/// uploaded twice is stored once. Records (a photo's `digest`, an expense's `receipt`) name the
/// digest; only people who see such a record may read the bytes.
package actor FieldUploads {
    package struct Limits: Codable, Sendable, Equatable {
        package var maxBytes: Int
        package var types: [String]
    }

    package static let limits = Limits(maxBytes: 20 << 20, types: ["application/pdf", "image/heic", "image/jpeg", "image/png"])

    /// One upload under way.
    struct Upload: Codable, Sendable {
        var personId: String
        var orgId: String
        var type: String
        /// The length the client announced, if it did.
        var length: Int?
    }

    let folder: URL
    let blobs: Blobs
    /// An upload's bytes as this process sent them on: their running SHA-256 and the object
    /// writer carrying them to the store. Completing one then reads nothing back. An upload this
    /// process did not see from its first byte (a restart, another replica), or one whose bytes
    /// the store refused on the way, is hashed and sent from its file at completion instead.
    struct Streaming {
        var hash = SHA256()
        let writer: ObjectStore.Writer
    }

    private var streaming: [String: Streaming] = [:]
    /// Each upload's description as read from (or written to) its file: written once, at creation,
    /// so it is read once, not at every append (a read cost four trips to the file threads, more
    /// than the append's own write). Whether the upload still exists is its data file's to say.
    private var described: [String: Upload] = [:]
    /// Uploads an append is writing to now: a second one at the same time is refused (the actor
    /// lets other calls in while a write waits on the disk).
    private var writing: Set<String> = []
    private let files = FileSystem.shared

    package init(folder: URL, blobs: Blobs) {
        self.folder = folder
        self.blobs = blobs
    }

    /// Starts an upload of `type` (its first bytes follow with `append`); its token: the one a 104
    /// already promised when that is a UUID no upload has (a client that sets it itself only names its own upload).
    package func create(for person: FieldPerson, type: String, length: Int?, token promised: String? = nil) async throws -> String {
        guard Self.limits.types.contains(type) else {
            throw FieldError(.invalidField("Content-Type"), "uploads must be one of \(Self.limits.types.joined(separator: ", ")), not \(type.prefix(60))")
        }
        if let length, length < 1 {
            throw FieldError(.invalidField("Upload-Length"), "an upload holds at least one byte: a photo or receipt")
        }
        if let length, length > Self.limits.maxBytes {
            throw FieldError(.tooLarge, "an upload may be at most \(Self.limits.maxBytes) bytes")
        }
        try await files.createDirectory(at: FilePath(folder.path), withIntermediateDirectories: true)
        await sweep()
        var token = SecureRandom.uuidString()
        if let promised, (try? Validate.uuid(promised, field: "")) != nil, try await files.info(forFileAt: meta(promised)) == nil {
            token = promised
        }
        let upload = Upload(personId: person.personId, orgId: person.orgId, type: type, length: length)
        do {
            try await write(Array(JSONEncoder().encode(upload)), to: meta(token))
            try await write([], to: data(token))
        } catch {
            throw FieldError(.notReady, "the upload could not be started on this server's disk; try again")
        }
        described[token] = upload
        // Without the store now (NATS away), the bytes are kept on disk and sent at completion.
        streaming[token] = (try? await blobs.bucket(Blobs.field).writer(id: token)).map { Streaming(writer: $0) }
        return token
    }

    /// How many bytes of the upload the server holds.
    package func offset(_ token: String, for person: FieldPerson) async throws -> Int {
        _ = try await upload(token, for: person)
        return try await size(token)
    }

    /// Appends what `body` brings from `offset` (which must be what the server holds: a client
    /// that lost track asks first), gathered into writes of `writeSize` to one opening of the file;
    /// answers the length held. When the body breaks off (a lost connection), what came before the
    /// break is kept and the error rethrown: the device asks for the offset and goes on from there.
    package func append<Body: AsyncSequence<ByteBuffer, any Error> & Sendable>(_ body: Body, to token: String, at offset: Int,
                                                                           for person: FieldPerson) async throws -> Int {
        let upload = try await upload(token, for: person)
        guard writing.insert(token).inserted else {
            throw FieldError(.offsetMismatch(try await size(token)), "another append to this upload is under way")
        }
        defer { writing.remove(token) }
        let held = try await size(token)
        guard offset == held else { throw FieldError(.offsetMismatch(held), "the server holds \(held) bytes of this upload, not \(offset)") }
        let limit = min(upload.length ?? Self.limits.maxBytes, Self.limits.maxBytes)
        let handle = try await files.openFile(forWritingAt: data(token), options: .modifyFile(createIfNecessary: false))
        let end: Result<Int, any Error>
        do { end = .success(try await write(body, to: handle, of: token, from: held, upTo: limit)) } catch { end = .failure(error) }
        try? await handle.close() // nothing to lose: each write is in the file once it returns
        guard described[token] != nil else { // abandoned while its bytes came: none may stay in the store
            await cancel(token)
            throw FieldError(.notFound, "upload \(token.prefix(40)) was abandoned while its bytes came; start again")
        }
        return try end.get()
    }

    /// Writes what `body` brings from `offset`, `writeSize` at a time; on a broken body, writes what
    /// came before the break and rethrows.
    private func write(_ body: some AsyncSequence<ByteBuffer, any Error>, to handle: WriteFileHandle, of token: String,
                       from offset: Int, upTo limit: Int) async throws -> Int {
        var (end, pending) = (offset, ByteBuffer())
        do {
            for try await var chunk in body {
                guard end + pending.readableBytes + chunk.readableBytes <= limit else {
                    throw FieldError(.tooLarge, "an upload may be at most \(limit) bytes")
                }
                pending.writeBuffer(&chunk)
                if pending.readableBytes >= Self.writeSize { end = try await write(&pending, to: handle, of: token, at: end) }
            }
        } catch let error as FieldError {
            throw error
        } catch {
            _ = try? await write(&pending, to: handle, of: token, at: end)
            throw error
        }
        return try await write(&pending, to: handle, of: token, at: end)
    }

    /// Bytes gathered before each write to an upload's file.
    static let writeSize = 256 << 10

    /// Writes `pending` at `offset` and sends it on to the store; answers the length held after it.
    private func write(_ pending: inout ByteBuffer, to handle: WriteFileHandle, of token: String, at offset: Int) async throws -> Int {
        guard pending.readableBytes > 0 else { return offset }
        try await handle.write(contentsOf: pending.readableBytesView, toAbsoluteOffset: Int64(offset))
        await send(pending, of: token, at: offset)
        defer { pending.clear() }
        return offset + pending.readableBytes
    }

    /// Hashes the bytes written at `offset` and sends them on to the store, when this process
    /// sent everything before them; else the upload is sent from its file at completion.
    private func send(_ bytes: ByteBuffer, of token: String, at offset: Int) async {
        guard var streamed = streaming[token], streamed.writer.written == offset else {
            streaming[token] = nil
            return
        }
        bytes.withUnsafeReadableBytes { streamed.hash.update(bufferPointer: $0) }
        do {
            var rest = bytes
            while rest.readableBytes > 0, let chunk = rest.readSlice(length: min(rest.readableBytes, ObjectStore.chunkSize)) {
                try await streamed.writer.write(Data(chunk.readableBytesView))
            }
            streaming[token] = streamed
        } catch {
            streaming[token] = nil // the file holds the bytes: they are sent from it at completion
        }
    }

    /// Ends the upload: checks its bytes are what its type says, names the bytes already sent by
    /// their digest (or, when this process did not send them all, sends them from the file chunk
    /// by chunk), and forgets the upload.
    package func complete(_ token: String, for person: FieldPerson) async throws -> ObjectStore.Info {
        let upload = try await upload(token, for: person)
        let held = try await size(token)
        if let length = upload.length, held != length {
            throw FieldError(.offsetMismatch(held), "the upload announced \(length) bytes and holds \(held)")
        }
        let path = data(token)
        let store = try await blobs.bucket(Blobs.field)
        let streamed = streaming[token].flatMap { $0.writer.written == held ? $0 : nil }
        let chunkLength = ByteCount.bytes(Int64(ObjectStore.chunkSize))
        // One opening of the file: its head checked, then (only if need be) hashed and sent.
        let stored = try await files.withFileHandle(forReadingAt: path) { handle -> ObjectStore.Info? in
            let head = try await handle.readChunk(fromAbsoluteOffset: 0, length: .bytes(16))
            guard held > 0, Self.looksLike(upload.type, Array(head.readableBytesView)) else { return nil }
            if let streamed { return try await streamed.writer.commit(digest: streamed.hash.finalize(), type: upload.type) }
            var hash = SHA256()
            for try await chunk in handle.readChunks(in: 0..<Int64(held), chunkLength: chunkLength) {
                chunk.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
            }
            let writer = try store.writer(id: token)
            try await writer.discard() // what an earlier process sent of it
            if let existing = try await store.info(ObjectStore.hex(hash.finalize())) { return existing }
            for try await chunk in handle.readChunks(in: 0..<Int64(held), chunkLength: chunkLength) {
                try await writer.write(Data(chunk.readableBytesView))
            }
            return try await writer.commit(digest: hash.finalize(), type: upload.type)
        }
        guard let info = stored else {
            await cancel(token) // no later append can make it the file it claimed to be
            throw FieldError(.invalidField("Content-Type"), "the bytes are not a \(upload.type) file")
        }
        await forget(token)
        return info
    }

    /// Forgets an upload and removes its bytes, here and in the store.
    package func cancel(_ token: String) async {
        var writer = streaming[token]?.writer
        await forget(token)
        if writer == nil { writer = try? await blobs.bucket(Blobs.field).writer(id: token) }
        _ = try? await writer?.discard()
    }

    /// Forgets an upload and its file (its bytes in the store are an object's now, or removed by `cancel`).
    private func forget(_ token: String) async {
        (streaming[token], described[token]) = (nil, nil)
        _ = try? await files.removeItem(at: data(token))
        _ = try? await files.removeItem(at: meta(token))
    }

    /// The bytes of a stored photo or receipt.
    package func read(_ digest: String) async throws -> (bytes: [UInt8], type: String)? {
        let store = try await blobs.bucket(Blobs.field)
        guard let info = try await store.info(digest), let bytes = try await store.get(digest) else { return nil }
        return (bytes, info.type)
    }

    /// How long an upload nobody appends to is kept: a shift offline, and then some.
    static let abandonedAfter: TimeInterval = 48 * 3600

    /// Removes uploads untouched for `abandonedAfter` (a device that gave up, a creation whose
    /// connection broke before it learned where to resume).
    func sweep(now: Date = Date()) async {
        for token in await Self.abandoned(in: FilePath(folder.path), before: now.timeIntervalSince1970 - Self.abandonedAfter) {
            await cancel(token)
        }
    }

    /// The uploads in `folder` whose bytes were last written before `cutoff` (seconds since 1970).
    private static func abandoned(in folder: FilePath, before cutoff: Double) async -> [String] {
        let files = FileSystem.shared
        let tokens = try? await files.withDirectoryHandle(atPath: folder) { directory in
            var tokens: [String] = []
            // An upload's age is its bytes' (the description beside them is written once, at creation).
            for try await entry in directory.listContents() where entry.name.string.hasSuffix(".part") {
                guard let modified = try await files.info(forFileAt: entry.path)?.lastDataModificationTime,
                      Double(modified.seconds) < cutoff else { continue }
                tokens.append(String(entry.name.string.dropLast(".part".count)))
            }
            return tokens
        }
        return tokens ?? []
    }

    private func upload(_ token: String, for person: FieldPerson) async throws -> Upload {
        guard (try? Validate.uuid(token, field: "")) != nil, let upload = await description(token),
              Access.permits(person.principal, ResourceOwner(app: FieldRole.app, org: upload.orgId, personId: upload.personId)) else {
            throw FieldError(.notFound, "no upload \(token.prefix(40)) of yours; start again")
        }
        return upload
    }

    /// The upload's description: remembered, or read from its file (an upload this process did not start).
    private func description(_ token: String) async -> Upload? {
        if let upload = described[token] { return upload }
        guard let bytes = try? await [UInt8](contentsOf: meta(token), maximumSizeAllowed: .kibibytes(64)),
              let upload = try? JSONDecoder().decode(Upload.self, from: Data(bytes)) else { return nil }
        described[token] = upload
        return upload
    }

    private func size(_ token: String) async throws -> Int {
        guard let info = try await files.info(forFileAt: data(token)) else {
            described[token] = nil // removed elsewhere (another process's sweep): nothing left to remember
            streaming[token] = nil
            throw FieldError(.notFound, "no upload \(token.prefix(40)) of yours; start again")
        }
        return Int(info.size)
    }

    /// Writes a new file whole (on NIO's file threads, as every file call here: never the cooperative pool).
    private func write(_ bytes: [UInt8], to path: FilePath) async throws {
        _ = try await files.withFileHandle(forWritingAt: path, options: .newFile(replaceExisting: false)) { handle in
            try await handle.write(contentsOf: bytes, toAbsoluteOffset: 0)
        }
    }

    private func data(_ token: String) -> FilePath { FilePath(folder.appendingPathComponent(token + ".part").path) }
    private func meta(_ token: String) -> FilePath { FilePath(folder.appendingPathComponent(token + ".json").path) }

    /// Whether the first bytes are those of `type` (a photo that is not one is refused, whatever it claims).
    static func looksLike(_ type: String, _ bytes: [UInt8]) -> Bool {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        switch type {
        case "image/jpeg": return starts([0xFF, 0xD8, 0xFF])
        case "image/png": return starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case "image/heic": return starts(Array("ftyp".utf8), at: 4)
        case "application/pdf": return starts(Array("%PDF-".utf8))
        default: return false
        }
    }
}
