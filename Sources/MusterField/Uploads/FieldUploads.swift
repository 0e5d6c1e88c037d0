public import Foundation
import MusterEvents
public import MusterNATS
public import MusterPlatform

/// Photos and receipts, uploaded resumably: an upload is a file in the data folder that grows by
/// appends at the offset the server reports, with its owner and type beside it (so an upload
/// survives a restart); once complete its bytes go to the object store under their SHA-256, so the
/// same photo uploaded twice is stored once. Records (a photo's `digest`, an expense's `receipt`)
/// name the digest; only people who see such a record may read the bytes.
public actor FieldUploads {
    public struct Limits: Codable, Sendable, Equatable {
        public var maxBytes: Int
        public var types: [String]
    }

    public static let limits = Limits(maxBytes: 20 << 20, types: ["application/pdf", "image/heic", "image/jpeg", "image/png"])

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

    public init(folder: URL, blobs: Blobs) {
        self.folder = folder
        self.blobs = blobs
    }

    /// Starts an upload of `type` (its first bytes follow with `append`); its token: the one a 104
    /// already promised when that is a UUID no upload has (a client that sets it itself only names its own upload).
    public func create(for person: FieldPerson, type: String, length: Int?, token promised: String? = nil) throws -> String {
        guard Self.limits.types.contains(type) else {
            throw FieldError(.invalidField("Content-Type"), "uploads must be one of \(Self.limits.types.joined(separator: ", ")), not \(type.prefix(60))")
        }
        if let length, length < 1 {
            throw FieldError(.invalidField("Upload-Length"), "an upload holds at least one byte: a photo or receipt")
        }
        if let length, length > Self.limits.maxBytes {
            throw FieldError(.tooLarge, "an upload may be at most \(Self.limits.maxBytes) bytes")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        sweep()
        var token = UUID().uuidString.lowercased()
        if let promised, (try? Validate.uuid(promised, field: "")) != nil, !FileManager.default.fileExists(atPath: meta(promised).path) {
            token = promised
        }
        let upload = Upload(personId: person.personId, orgId: person.orgId, type: type, length: length)
        try JSONEncoder().encode(upload).write(to: meta(token), options: .atomic)
        guard FileManager.default.createFile(atPath: data(token).path, contents: nil) else {
            throw FieldError(.notReady, "the upload could not be started on this server's disk; try again")
        }
        return token
    }

    /// How many bytes of the upload the server holds.
    public func offset(_ token: String, for person: FieldPerson) throws -> Int {
        _ = try upload(token, for: person)
        return try size(token)
    }

    /// Appends `bytes` at `offset` (which must be what the server holds: a client that lost track asks first).
    public func append(_ bytes: [UInt8], to token: String, at offset: Int, for person: FieldPerson) throws -> Int {
        let upload = try upload(token, for: person)
        let held = try size(token)
        guard offset == held else { throw FieldError(.offsetMismatch(held), "the server holds \(held) bytes of this upload, not \(offset)") }
        guard held + bytes.count <= min(upload.length ?? Self.limits.maxBytes, Self.limits.maxBytes) else {
            throw FieldError(.tooLarge, "an upload may be at most \(upload.length ?? Self.limits.maxBytes) bytes")
        }
        let handle = try FileHandle(forWritingTo: data(token))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        return held + bytes.count
    }

    /// Ends the upload: checks its bytes are what its type says, stores them by digest, and forgets the upload.
    public func complete(_ token: String, for person: FieldPerson) async throws -> ObjectStore.Info {
        let upload = try upload(token, for: person)
        let bytes = [UInt8](try Data(contentsOf: data(token)))
        if let length = upload.length, bytes.count != length {
            throw FieldError(.offsetMismatch(bytes.count), "the upload announced \(length) bytes and holds \(bytes.count)")
        }
        guard !bytes.isEmpty, Self.looksLike(upload.type, bytes) else {
            cancel(token) // no later append can make it the file it claimed to be
            throw FieldError(.invalidField("Content-Type"), "the bytes are not a \(upload.type) file")
        }
        let info = try await blobs.bucket(Blobs.field).put(bytes, type: upload.type)
        cancel(token)
        return info
    }

    /// Forgets an upload and its bytes.
    public func cancel(_ token: String) {
        try? FileManager.default.removeItem(at: data(token))
        try? FileManager.default.removeItem(at: meta(token))
    }

    /// The bytes of a stored photo or receipt.
    public func read(_ digest: String) async throws -> (bytes: [UInt8], type: String)? {
        let store = try await blobs.bucket(Blobs.field)
        guard let info = try await store.info(digest), let bytes = try await store.get(digest) else { return nil }
        return (bytes, info.type)
    }

    /// How long an upload nobody appends to is kept: a shift offline, and then some.
    static let abandonedAfter: TimeInterval = 48 * 3600

    /// Removes uploads untouched for `abandonedAfter` (a device that gave up, a creation whose
    /// connection broke before it learned where to resume).
    func sweep(now: Date = Date()) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        // An upload's age is its bytes' (the description beside them is written once, at creation).
        for name in names where name.hasSuffix(".part") {
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) > Self.abandonedAfter else { continue }
            cancel(String(name.dropLast(".part".count)))
        }
    }

    private func upload(_ token: String, for person: FieldPerson) throws -> Upload {
        guard (try? Validate.uuid(token, field: "")) != nil, let bytes = try? Data(contentsOf: meta(token)),
              let upload = try? JSONDecoder().decode(Upload.self, from: bytes), upload.personId == person.personId else {
            throw FieldError(.notFound, "no upload \(token.prefix(40)) of yours; start again")
        }
        return upload
    }

    private func size(_ token: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: data(token).path)[.size] as? Int) ?? 0
    }

    private func data(_ token: String) -> URL { folder.appendingPathComponent(token + ".part") }
    private func meta(_ token: String) -> URL { folder.appendingPathComponent(token + ".json") }

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
