import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterField
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOCore
import Testing

/// Resumable uploads over real sockets: a connection broken in the middle of every 64 KB, each time
/// resumed from the offset the server reports.
@Suite("Field uploads: resumable, stored once by SHA-256, read only by the project's people")
struct FieldUploadTests {
    /// A JPEG's first bytes, then `count` pseudo-random bytes.
    static func photo(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return [0xFF, 0xD8, 0xFF, 0xE0] + (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// A request body of these bytes, as `FieldUploads.append` takes one.
    static func body(_ bytes: some Sequence<UInt8>) -> AsyncThrowingStream<ByteBuffer, any Error> {
        let buffer = ByteBuffer(bytes: Array(bytes))
        return AsyncThrowingStream { $0.yield(buffer); $0.finish() }
    }

    static func hex(_ bytes: [UInt8]) -> String { SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined() }

    /// Sends a PATCH whose body stops after `sent` of its `declared` bytes, then drops the connection.
    static func brokenAppend(port: Int, token: String, upload: String, offset: Int, bytes: ArraySlice<UInt8>) throws {
        let socket = try RawSocket(port: port)
        try socket.send("PATCH \(upload) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nUpload-Draft-Interop-Version: 6\r\n"
                        + "Upload-Offset: \(offset)\r\nUpload-Complete: ?0\r\nContent-Type: application/partial-upload\r\nContent-Length: \(bytes.count * 2)\r\n\r\n")
        try socket.send(Array(bytes))
    }

    static func offset(_ app: TestApp, _ token: String, _ upload: String) async throws -> Int {
        let head = try await app.request(upload, method: .head, headers: FieldSyncTests.bearer(token))
        #expect(head.status == .noContent, "\(head.text)")
        return Int(head.headers[HTTPField.Name("Upload-Offset")!] ?? "") ?? -1
    }

    @Test func anUploadBrokenAtEvery64KBResumesToTheSameDigest() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            let crew = try await FieldSyncTests.crew(app)
            try await FieldSyncTests.staffedProject(app, crew)
            let bytes = Self.photo(1 << 20, seed: 7)
            let chunk = 64 * 1024

            // Limits first, as a client asks before it starts.
            let options = try await app.request("/api/field/uploads", method: .options, headers: FieldSyncTests.bearer(crew.ana))
            #expect(options.headers[HTTPField.Name("Upload-Limit")!] == "max-size=\(20 << 20)")

            var headers = FieldSyncTests.bearer(crew.ana)
            headers[.contentType] = "image/jpeg"
            headers[HTTPField.Name("Upload-Complete")!] = "?0"
            headers[HTTPField.Name("Upload-Length")!] = "\(bytes.count)"
            headers[HTTPField.Name("Upload-Draft-Interop-Version")!] = "6"
            let created = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers,
                                                       body: ByteBuffer(bytes: bytes[0..<chunk]))
            #expect(created.status == .created)
            let upload = try #require(created.headers[.location])
            // An append from a stale offset is a conflict that names the right one.
            var stale = FieldSyncTests.bearer(crew.ana)
            stale[HTTPField.Name("Upload-Offset")!] = "0"
            let conflict = try await app.client.execute(uri: upload, method: .patch, headers: stale, body: ByteBuffer(bytes: bytes[0..<10]))
            #expect(conflict.status == .conflict && conflict.headers[HTTPField.Name("Upload-Offset")!] == "\(chunk)")
            var offset = chunk
            while offset < bytes.count {
                // Half of the next 64 KB arrive, then the connection breaks; the device asks where to go on from.
                try Self.brokenAppend(port: port, token: crew.ana, upload: upload, offset: offset, bytes: bytes[offset..<offset + chunk / 2])
                try await eventually("the broken append is kept") { try await Self.offset(app, crew.ana, upload) == offset + chunk / 2 }
                offset = try await Self.offset(app, crew.ana, upload)
                let end = min(offset + chunk / 2 + chunk, bytes.count)
                var append = FieldSyncTests.bearer(crew.ana)
                append[.contentType] = "application/partial-upload"
                append[HTTPField.Name("Upload-Offset")!] = "\(offset)"
                append[HTTPField.Name("Upload-Complete")!] = end == bytes.count ? "?1" : "?0"
                let answer = try await app.client.execute(uri: upload, method: .patch, headers: append, body: ByteBuffer(bytes: bytes[offset..<end]))
                #expect(answer.status == (end == bytes.count ? .ok : .noContent), "\(String(buffer: answer.body))")
                if end == bytes.count {
                    let stored = (try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView))) as? [String: Any]
                    #expect(stored?["digest"] as? String == Self.hex(bytes) && stored?["size"] as? Int == bytes.count)
                }
                offset = end
            }
            // The finished upload is gone.
            #expect(try await app.request(upload, method: .head, headers: FieldSyncTests.bearer(crew.ana)).status == .notFound)

            // The same photo again, in one plain request: the same object.
            var plain = FieldSyncTests.bearer(crew.ana)
            plain[.contentType] = "image/jpeg"
            let again = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: plain, body: ByteBuffer(bytes: bytes))
            #expect(again.status == .created && String(buffer: again.body).contains(Self.hex(bytes)))

            // Readable by the project's people once a record names it, by nobody else.
            let blob = "/api/field/blobs/\(Self.hex(bytes))"
            #expect(try await app.request(blob, headers: FieldSyncTests.bearer(crew.ana)).status == .notFound, "no record names it yet")
            let now = Timestamp.string(Date())
            try await FieldSyncTests.push(app, crew.ana, FieldSyncTests.batch(device: FieldSyncTests.phone, sentAt: now, [
                FieldSyncTests.mutation("photo", UUID().uuidString, base: 0, at: now,
                                        #"{"projectId": "\#(FieldSyncTests.project)", "takenAt": "\#(now)", "digest": "\#(Self.hex(bytes))", "latitude": 44.0806, "longitude": -103.2311}"#),
            ]))
            let read = try await app.request(blob, headers: FieldSyncTests.bearer(crew.ana))
            #expect(read.status == .ok && Array(read.body.readableBytesView) == bytes)
            #expect(try await app.request(blob, headers: FieldSyncTests.bearer(crew.ben)).status == .notFound)
        }
    }

    @Test func aPlainUploadBrokenMidBodyResumesFromTheLocationOfIts104() async throws {
        try await apps.withTestApp(["ingest"], live: true) { app in
            let port = try #require(app.client.port)
            let crew = try await FieldSyncTests.crew(app)
            let bytes = Self.photo(300 * 1024, seed: 11)
            // As iOS 17's URLSession sends a plain upload: the whole body announced, the draft's version named. A client's
            // own Muster-Upload-Token is not taken.
            let forged = UUID().uuidString.lowercased()
            let location = try { () throws -> String in
                let socket = try RawSocket(port: port) // closed when this closure returns: the connection breaks
                try socket.send("POST /api/field/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(crew.ana)\r\n"
                                + "Upload-Draft-Interop-Version: 6\r\nUpload-Complete: ?1\r\nContent-Type: image/jpeg\r\n"
                                + "Muster-Upload-Token: \(forged)\r\nContent-Length: \(bytes.count)\r\n\r\n")
                let interim = socket.receive(wait: .seconds(10))
                #expect(interim.hasPrefix("HTTP/1.1 104"), "\(interim)")
                // A third of the body, then the connection breaks.
                try socket.send(Array(bytes[0..<100 * 1024]))
                return try #require(interim.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }.map { String($0.dropFirst(10)) })
            }()
            #expect(location.hasPrefix("/api/field/uploads/") && !location.contains(forged))
            // The device asks the 104's location where to go on from (a 404 until the route has made the upload, which
            // it does once it knows the person), and appends the rest.
            try await eventually("the bytes that arrived are kept") {
                let head = try await app.request(location, method: .head, headers: FieldSyncTests.bearer(crew.ana))
                return head.headers[HTTPField.Name("Upload-Offset")!] == "\(100 * 1024)"
            }
            var append = FieldSyncTests.bearer(crew.ana)
            append[.contentType] = "application/partial-upload"
            append[HTTPField.Name("Upload-Offset")!] = "\(100 * 1024)"
            append[HTTPField.Name("Upload-Complete")!] = "?1"
            let done = try await app.client.execute(uri: location, method: .patch, headers: append, body: ByteBuffer(bytes: bytes[(100 * 1024)...]))
            #expect(done.status == .ok && String(buffer: done.body).contains(Self.hex(bytes)), "\(String(buffer: done.body))")

            // Version 3 (iOS 17) is answered in its own version and spelling.
            let older = try RawSocket(port: port)
            try older.send("POST /api/field/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(crew.ana)\r\nContent-Type: image/jpeg\r\n"
                           + "Upload-Draft-Interop-Version: 3\r\nUpload-Incomplete: ?1\r\nContent-Length: 1024\r\n\r\n")
            // Generous waits: on two cores beside the whole suite an answer took longer than 2 s.
            let early = older.receive(wait: .seconds(10)).lowercased()
            #expect(early.hasPrefix("http/1.1 104") && early.contains("upload-draft-interop-version: 3"), "\(early)")
            try older.send(Array(bytes[0..<1024]))
            let opened = older.receive(wait: .seconds(10)).lowercased()
            #expect(opened.contains("201 created") && opened.contains("upload-incomplete: ?1") && opened.contains("upload-offset: 1024"), "\(opened)")

            // Without the draft's version, no 104: an ordinary upload.
            let plain = try RawSocket(port: port)
            try plain.send("POST /api/field/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(crew.ana)\r\nContent-Type: image/jpeg\r\n"
                           + "Content-Length: \(bytes.count)\r\n\r\n")
            try plain.send(bytes)
            let answer = plain.receive(wait: .seconds(10))
            #expect(answer.hasPrefix("HTTP/1.1 201") && answer.contains(Self.hex(bytes)), "\(answer.prefix(300))")
        }
    }

    /// Bytes go on to the object store as they arrive; completing names them. What is not an
    /// object in the end (a duplicate's bytes, an abandoned upload's, what a process sent before it
    /// restarted) leaves nothing behind in the bucket.
    @Test func uploadBytesStreamToTheStoreAndNothingIsLeftBehind() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let crew = try await FieldSyncTests.crew(app)
            let jetStream = app.env.environment.jetStream
            func messages() async throws -> UInt64 { try await jetStream.streamInfo("OBJ_\(Blobs.field)").state.messages }
            var headers = FieldSyncTests.bearer(crew.ana)
            headers[.contentType] = "image/jpeg"
            let bytes = Self.photo(300 * 1024, seed: 23) // three chunks of at most 128 KB
            let first = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
            #expect(first.status == .created && String(buffer: first.body).contains(Self.hex(bytes)), "\(String(buffer: first.body))")
            #expect(try await messages() == 4, "three chunks and the description")

            let again = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
            #expect(again.status == .created && String(buffer: again.body).contains(Self.hex(bytes)))
            #expect(try await messages() == 4, "the duplicate's chunks are gone")

            var open = headers
            open[HTTPField.Name("Upload-Complete")!] = "?0"
            open[HTTPField.Name("Upload-Draft-Interop-Version")!] = "6"
            let started = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: open, body: ByteBuffer(bytes: bytes[..<(200 * 1024)]))
            let location = try #require(started.headers[.location])
            // Sent on as they came; their acks are awaited at completion, not by the append.
            try await eventually("an open upload's bytes are in the store already") { try await messages() == 6 }
            #expect(try await app.request(location, method: .delete, headers: FieldSyncTests.bearer(crew.ana)).status == .noContent)
            #expect(try await messages() == 4, "an abandoned upload's bytes are gone")

            // A process that restarts mid-upload forgets what it sent: the next one sends the file, and removes the rest.
            let folder = app.env.dataDirectory.appendingPathComponent("restarting-uploads")
            let blobs = Blobs(jetStream: jetStream, replicas: 1)
            let person = FieldPerson(personId: UUID().uuidString.lowercased(), orgId: UUID().uuidString.lowercased(), role: FieldRoles.worker)
            let other = Self.photo(400 * 1024, seed: 29)
            let token = try await FieldUploads(folder: folder, blobs: blobs).create(for: person, type: "image/jpeg", length: other.count)
            let before = FieldUploads(folder: folder, blobs: blobs)
            #expect(try await before.append(Self.body(other[..<(300 * 1024)]), to: token, at: 0, for: person) == 300 * 1024)
            let after = FieldUploads(folder: folder, blobs: blobs)
            #expect(try await after.append(Self.body(other[(300 * 1024)...]), to: token, at: 300 * 1024, for: person) == other.count)
            let info = try await after.complete(token, for: person)
            #expect(info.digest == Self.hex(other) && info.size == other.count)
            #expect(try await messages() == 4 + 4 + 1, "the new object's four chunks and description, nothing of the first process")
            let read = try #require(try await after.read(info.digest))
            #expect(read.bytes == other && read.type == "image/jpeg")
        }
    }

    @Test func uploadsThatAreNotWhatTheySayAreRefused() async throws {
        try await apps.withTestApp(["ingest"]) { app in
            let crew = try await FieldSyncTests.crew(app)
            var headers = FieldSyncTests.bearer(crew.ana)
            headers[.contentType] = "image/jpeg"
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
            let lying = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: png))
            #expect(lying.status == .unprocessableContent, "\(String(buffer: lying.body))")
            headers[.contentType] = "application/x-msdownload"
            #expect(try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: png)).status
                    == .unprocessableContent)
            headers[.contentType] = "image/jpeg"
            headers[HTTPField.Name("Upload-Length")!] = "\(21 << 20)"
            headers[HTTPField.Name("Upload-Complete")!] = "?0"
            #expect(try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: png)).status
                    == .contentTooLarge)
            // A 0-byte upload is no file (it was a 413 "at most 20971520 bytes": point 9 of the authorization review).
            headers[HTTPField.Name("Upload-Length")!] = "0"
            let empty = try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer())
            #expect(empty.status == .unprocessableContent && empty.errorMessage.contains("at least one byte"), "\(empty.text)")
            headers[HTTPField.Name("Upload-Length")!] = "ten"
            #expect(try await app.client.execute(uri: "/api/field/uploads", method: .post, headers: headers, body: ByteBuffer()).status
                    == .unprocessableContent)
            #expect(try await app.request("/api/field/uploads/not-a-token", method: .head, headers: FieldSyncTests.bearer(crew.ana)).status == .notFound)
            #expect(try await app.request("/api/field/uploads", method: .options).status == .unauthorized)
        }
    }

    /// An upload abandoned (`DELETE`) while an append is still bringing its bytes: what that append
    /// sends after the abandonment is removed from the store too, and the append answers "no upload".
    @Test func anUploadAbandonedMidAppendLeavesNothingInTheStore() async throws {
        try await apps.withTestLog { env in
            let blobs = Blobs(jetStream: env.log.jetStream, replicas: 1)
            let uploads = FieldUploads(folder: env.server.directory.appendingPathComponent("uploads-\(UUID())"), blobs: blobs)
            let ana = FieldPerson(personId: "p-ana", orgId: "o-1", role: "worker")
            func messages() async throws -> UInt64 { try await env.log.jetStream.streamInfo("OBJ_\(Blobs.field)").state.messages }
            let photo = Self.photo(400 * 1024, seed: 31)
            let token = try await uploads.create(for: ana, type: "image/jpeg", length: nil)
            let (body, feed) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
            feed.yield(ByteBuffer(bytes: photo[..<(300 * 1024)])) // a write's worth: sent on at once
            async let refusal: (any Error)? = {
                do { _ = try await uploads.append(body, to: token, at: 0, for: ana) } catch { return error }
                return nil
            }()
            try await eventually("the first bytes are in the store") { try await messages() == 3 }
            await uploads.cancel(token)
            #expect(try await messages() == 0)
            feed.yield(ByteBuffer(bytes: photo[(300 * 1024)...]))
            feed.finish()
            let error = await refusal
            #expect((error as? FieldError)?.code == .notFound, "\(String(describing: error))")
            #expect(try await messages() == 0, "what came after the abandonment is gone too")
            await #expect(performing: { try await uploads.offset(token, for: ana) }, throws: { ($0 as? FieldError)?.code == .notFound })
        }
    }

    /// An upload's description is written once and remembered by the process that read it; another
    /// process over the same folder (a restart) reads it from its file, and an upload removed
    /// elsewhere answers "no upload" rather than the remembered description.
    @Test func anUploadsDescriptionIsReadOnceAndForgottenWithItsFiles() async throws {
        try await apps.withTestLog { env in
            let folder = env.server.directory.appendingPathComponent("uploads-\(UUID())")
            let blobs = Blobs(jetStream: env.log.jetStream, replicas: 1)
            let ana = FieldPerson(personId: "p-ana", orgId: "o-1", role: "worker"), ben = FieldPerson(personId: "p-ben", orgId: "o-1", role: "worker")
            let notFound: @Sendable (any Error) -> Bool = { ($0 as? FieldError)?.code == .notFound }
            let first = FieldUploads(folder: folder, blobs: blobs)
            let token = try await first.create(for: ana, type: "image/jpeg", length: nil)
            #expect(try await first.append(Self.body(Self.photo(100, seed: 1)), to: token, at: 0, for: ana) == 104)
            await #expect(performing: { try await first.offset(token, for: ben) }, throws: notFound)

            let restarted = FieldUploads(folder: folder, blobs: blobs)
            #expect(try await restarted.offset(token, for: ana) == 104)
            await #expect(performing: { try await restarted.offset(token, for: ben) }, throws: notFound)

            try FileManager.default.removeItem(at: folder) // another process's sweep
            for uploads in [first, restarted] {
                await #expect(performing: { try await uploads.offset(token, for: ana) }, throws: notFound)
                await #expect(performing: { try await uploads.append(Self.body([1]), to: token, at: 104, for: ana) }, throws: notFound)
            }
        }
    }
}
