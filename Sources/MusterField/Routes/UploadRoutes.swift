import Foundation
import HTTPTypes
package import Hummingbird
import MusterEvents
import MusterNATS
package import MusterPlatform
package import MusterRuntime
import NIOCore

/// Resumable uploads of photos and receipts, as the IETF resumable-upload draft (interop version 6)
/// lays them out, on the field app's routes:
/// - `OPTIONS /api/field/uploads`: the limits (`Upload-Limit: max-size=…`), before a client starts;
///   `GET /api/field/upload-limits` says the same in JSON, with the types taken;
/// - `POST /api/field/uploads`: creates an upload with its first bytes (or all of them);
///   `Upload-Complete: ?0` keeps it open and answers its `Location` and `Upload-Offset`;
/// - `HEAD /api/field/uploads/{token}`: how many bytes the server holds (after a broken connection);
/// - `PATCH /api/field/uploads/{token}` with `Upload-Offset`: appends from there; `?1` completes it;
/// - `DELETE /api/field/uploads/{token}`: abandons it;
/// - `GET /api/field/blobs/{digest}`: a stored photo or receipt, for people who see a record naming it.
/// A completed upload answers `{digest, size, type}`; the device then names the digest in its record.
package enum UploadRoutes {
    package static let interopVersion = "6"
    /// The draft's versions a client may speak: 3 (iOS 17's URLSession; `Upload-Incomplete`), 5 and 6 (`Upload-Complete`).
    static let knownVersions: Set<String> = ["3", "5", "6"]

    package static func add(to routes: Routes<Router<MusterRequestContext>>, uploads: FieldUploads, sync: FieldSync, people: People) {
        routes.on(.options, "/api/field/uploads", access: .fieldPerson) { request, context in
            _ = try FieldRoutes.person(context)
            var headers = HTTPFields()
            headers[.uploadDraftInteropVersion] = interopVersion
            headers[.uploadLimit] = "max-size=\(FieldUploads.limits.maxBytes)"
            return try JSONResponse.make(.ok, FieldUploads.limits, headers: headers)
        }
        routes.get("/api/field/upload-limits", access: .fieldPerson) { request, context in
            _ = try FieldRoutes.person(context)
            return try JSONResponse.make(.ok, FieldUploads.limits)
        }
        routes.post("/api/field/uploads", access: .fieldPerson) { request, context in
            let person = try FieldRoutes.person(context)
            let type = (request.headers[.contentType] ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            // The whole length, when the client knows it: Upload-Length, or a complete upload's Content-Length.
            let announced = try number(request.headers[.uploadLength], "Upload-Length")
            let length = try announced ?? (isComplete(request) ? number(request.headers[.contentLength], "Content-Length") : nil)
            let token = try await uploads.create(for: person, type: type, length: length, token: request.headers[.musterUploadToken])
            return try await receive(request, into: token, at: 0, person: person, uploads: uploads, sync: sync, created: true)
        }
        routes.on(.head, "/api/field/uploads/{token}", access: .fieldPerson) { request, context in
            let person = try FieldRoutes.person(context)
            let offset = try await uploads.offset(try context.parameters.require("token"), for: person)
            var headers = progress(offset, complete: false)
            headers[.cacheControl] = "no-store"
            return Response(status: .noContent, headers: headers)
        }
        routes.on(.patch, "/api/field/uploads/{token}", access: .fieldPerson) { request, context in
            let person = try FieldRoutes.person(context)
            guard let offset = try number(request.headers[.uploadOffset], "Upload-Offset") else {
                throw FieldError(.invalidField("Upload-Offset"), "an append says where it starts: Upload-Offset")
            }
            return try await receive(request, into: try context.parameters.require("token"), at: offset, person: person, uploads: uploads, sync: sync, created: false)
        }
        routes.delete("/api/field/uploads/{token}", access: .fieldPerson) { request, context in
            let person = try FieldRoutes.person(context)
            let token = try context.parameters.require("token")
            _ = try await uploads.offset(token, for: person) // only the owner's
            await uploads.cancel(token)
            return Response(status: .noContent, headers: [.uploadDraftInteropVersion: interopVersion])
        }
        routes.get("/api/field/blobs/{digest}", access: .fieldPerson) { request, context in
            let person = try FieldRoutes.person(context)
            let digest = try context.parameters.require("digest").lowercased()
            guard await sync.canRead(digest, person), let (bytes, type) = try await uploads.read(digest) else {
                throw FieldError(.notFound, "no photo or receipt \(digest.prefix(64)) on a record of yours")
            }
            return Response(status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=31536000, immutable"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// `104 Upload Resumption Supported` with the upload's `Location`, sent as the head of an upload
    /// (`POST /api/field/uploads` from a client speaking the draft) arrives: before its body, so a
    /// client whose connection breaks mid-body (iOS 17's URLSession on its own) knows where to ask
    /// for the offset and append the rest. The route then creates the upload under that token, once
    /// the person is known; a request the route refuses leaves the location pointing at nothing.
    package static let resumptionSupported = InterimAnswer(name: "field-upload-104", reserved: .musterUploadToken) { request in
        guard request.method == .post, let version = request.headerFields[.uploadDraftInteropVersion], knownVersions.contains(version),
              (request.path ?? "").split(separator: "?", maxSplits: 1).first == "/api/field/uploads" else { return nil }
        let token = SecureRandom.uuidString()
        var passed = request
        passed.headerFields[.musterUploadToken] = token
        let interim = HTTPResponse(status: .init(code: 104, reasonPhrase: "Upload Resumption Supported"),
                                   headerFields: [.location: "/api/field/uploads/\(token)", .uploadDraftInteropVersion: version])
        return (interim, passed)
    }

    /// Appends the request's body to the upload; what arrived before a broken connection stays
    /// (the device asks for the offset and goes on from there).
    static func receive(_ request: Request, into token: String, at start: Int, person: FieldPerson, uploads: FieldUploads,
                        sync: FieldSync, created: Bool) async throws -> Response {
        let offset = try await uploads.append(request.body, to: token, at: start, for: person)
        var headers = progress(offset, complete: isComplete(request))
        if created { headers[.location] = "/api/field/uploads/\(token)" }
        guard isComplete(request) else { return Response(status: created ? .created : .noContent, headers: headers) }
        let info = try await uploads.complete(token, for: person)
        try await sync.stored(info.digest, size: info.size, type: info.type, by: person)
        return try JSONResponse.make(created ? .created : .ok, StoredUpload(digest: info.digest, size: info.size, type: info.type), headers: headers)
    }

    struct StoredUpload: Encodable, Sendable {
        var digest: String
        var size: Int
        var type: String
    }

    /// `Upload-Complete: ?1` (interop 5 and later), `Upload-Incomplete: ?0` (interop 3), or neither: a plain upload, complete.
    static func isComplete(_ request: Request) -> Bool {
        if let complete = request.headers[.uploadComplete] { return complete == "?1" }
        if let incomplete = request.headers[.uploadIncomplete] { return incomplete == "?0" }
        return true
    }

    static func progress(_ offset: Int, complete: Bool) -> HTTPFields {
        // Both spellings of completeness: version 3 clients read Upload-Incomplete, later ones Upload-Complete.
        [.uploadDraftInteropVersion: interopVersion, .uploadOffset: "\(offset)", .uploadComplete: complete ? "?1" : "?0",
         .uploadIncomplete: complete ? "?0" : "?1"]
    }

    /// A header holding a whole number, nil when absent; a header that holds something else is refused.
    static func number(_ value: String?, _ name: String) throws -> Int? {
        guard let value else { return nil }
        guard value.utf8.count <= 12, let number = Int(value), number >= 0 else {
            throw FieldError(.invalidField(name), "\(name) must be a whole number")
        }
        return number
    }
}

extension HTTPField.Name {
    // The unwraps cannot fail: literal tokens (letters and -) are valid field names.
    static let uploadDraftInteropVersion = HTTPField.Name("Upload-Draft-Interop-Version")!
    static let uploadComplete = HTTPField.Name("Upload-Complete")!
    static let uploadIncomplete = HTTPField.Name("Upload-Incomplete")!
    static let uploadOffset = HTTPField.Name("Upload-Offset")!
    static let uploadLength = HTTPField.Name("Upload-Length")!
    static let uploadLimit = HTTPField.Name("Upload-Limit")!
    /// The upload a 104 promised, set only by `UploadRoutes.resumptionSupported` (the pipeline strips it from what clients send).
    static let musterUploadToken = HTTPField.Name("Muster-Upload-Token")! // a literal token, as above: cannot fail
}
