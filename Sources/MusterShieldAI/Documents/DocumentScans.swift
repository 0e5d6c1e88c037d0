import Foundation
package import MusterEvents
package import MusterLog
import MusterNATS
package import MusterPlatform
package import MusterRuntime

/// Why a document was refused, in domain terms; `DocumentErrorCode+HTTP` gives the answers.
package typealias DocumentError = DomainError<DocumentErrorCode>

package enum DocumentErrorCode: Sendable, Hashable {
    case invalidField(String)
    case tooLarge
    case unknownDocument
}

/// ShieldAI's document scans: the image in the `muster_images` bucket, the device's OCR text sealed
/// with a key of the document's own in the vault of erasable keys. Deleting erases the key (the
/// text is unreadable for good, in every copy of the log) and the image.
package struct DocumentScans: Sendable {
    package static let maxImageBytes = 8 * 1024 * 1024
    package static let maxTextCharacters = 50_000

    let log: EventLog
    let runner: ProjectionRunner<ShieldAIProjection>
    let blobs: Blobs
    let vault: PersonalDataVault
    static let settle: Duration = .seconds(3)

    package init(log: EventLog, runner: ProjectionRunner<ShieldAIProjection>, blobs: Blobs, vault: PersonalDataVault) {
        self.log = log
        self.runner = runner
        self.blobs = blobs
        self.vault = vault
    }

    /// A document as its owner sees it, the text opened.
    package struct Opened: Sendable, Equatable {
        package var documentId: String
        package var kind: String
        package var contentType: String
        package var sizeBytes: Int
        package var ocrText: String?
        package var createdAt: String
    }

    package func scan(image: [UInt8], declaredType: String?, ocrText: String, kind: String, owner: Owner) async throws -> Opened {
        guard DocumentScanned.kinds.contains(kind) else {
            throw DocumentError(.invalidField("kind"), "kind must be one of \(DocumentScanned.kinds.sorted().joined(separator: ", "))")
        }
        guard !image.isEmpty else { throw DocumentError(.invalidField("image"), "image is empty") }
        guard image.count <= Self.maxImageBytes else { throw DocumentError(.tooLarge, "the image is larger than 8 MB") }
        guard let type = ImageKinds.sniff(image) else { throw DocumentError(.invalidField("image"), "image must be a JPEG, PNG or HEIC file") }
        if let declaredType, declaredType != type {
            throw DocumentError(.invalidField("contentType"), "contentType says \(declaredType.prefix(40)) but the image is \(type)")
        }
        guard ocrText.count <= Self.maxTextCharacters else {
            throw DocumentError(.invalidField("ocrText"), "ocrText must be at most \(Self.maxTextCharacters) characters")
        }
        let id = HexIDs.random("doc_")
        let info = try await blobs.bucket(Blobs.images).put(image, type: type)
        let sealed = try await vault.seal(ocrText, for: id)
        let scanned = DocumentScanned(documentId: id, owner: owner, kind: kind,
                                      image: BlobRef(bucket: Blobs.images, digest: info.digest, size: info.size, type: type), sealedText: sealed)
        let result = try await log.append(scanned, options: AppendOptions(expected: .noEvents, actor: owner.actor))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
        // The event's time, as the list will show it; the clock only if the fold has not caught up.
        let createdAt = await runner.read { $0.documents[id]?.createdAt } ?? Timestamp.string(Date())
        return Opened(documentId: id, kind: kind, contentType: type, sizeBytes: image.count, ocrText: ocrText, createdAt: createdAt)
    }

    /// The caller's documents: those `Access.permits` says are theirs.
    package func list(_ caller: Principal) async throws -> [Opened] {
        let documents = await runner.read { state in state.documents.values.filter { Access.permits(caller, $0.scan.owner.resource) } }
        var opened: [Opened] = []
        for document in documents.sorted(by: { $0.sequence < $1.sequence }) {
            let scan = document.scan
            opened.append(Opened(documentId: scan.documentId, kind: scan.kind, contentType: scan.image.type, sizeBytes: scan.image.size,
                                 ocrText: try await vault.open(String.self, scan.sealedText, for: scan.documentId), createdAt: document.createdAt))
        }
        return opened
    }

    /// Deletes the document: its text's key is erased, then its image (unless another live
    /// document holds the same bytes), then the deletion is recorded.
    package func delete(_ documentId: String, by caller: Principal) async throws {
        guard let document = await runner.read({ $0.documents[documentId] }), Access.permits(caller, document.scan.owner.resource) else {
            throw DocumentError(.unknownDocument, "no document \(documentId.prefix(40))")
        }
        try await erase(document, actor: document.scan.owner.actor)
    }

    /// Erases every live document of a forgotten person.
    func erase(personId: String) async throws {
        let documents = await runner.read { state in state.documents.values.filter { $0.scan.owner.personId == personId } }
        for document in documents { try await erase(document, actor: "system:shieldai") }
    }

    func erase(_ document: ShieldAIProjection.Document, actor: String) async throws {
        let documentId = document.scan.documentId
        try await vault.forget(documentId)
        let digest = document.scan.image.digest
        let shared = await runner.read { state in
            state.documents.values.contains { $0.scan.documentId != documentId && $0.scan.image.digest == digest }
        }
        if !shared { try await blobs.bucket(Blobs.images).erase(digest) }
        let result = try await log.append(DocumentDeleted(documentId: documentId),
                                          options: AppendOptions(idempotencyKey: "document-deleted:\(documentId)", actor: actor))
        _ = await runner.waitUntilApplied(result.sequence, timeout: Self.settle)
    }
}
