package import MusterEvents

/// `shieldai.document.scanned.v1`: a scanned document (ID, property deed, broker opt-out form): its
/// image in the object store, its OCR text sealed with a key of its own, so deleting the document
/// erases that key and the text can never be read again.
package struct DocumentScanned: EventPayload {
    package static let eventType = EventType(app: "shieldai", aggregate: "document", event: "scanned", major: 1)
    package static let kinds: Set<String> = ["id", "deed", "opt-out-form"]

    package var documentId: String
    package var owner: Owner
    package var kind: String
    package var image: BlobRef
    /// The OCR text, AES-GCM sealed (base64) with the document's key.
    package var sealedText: String

    package init(documentId: String, owner: Owner, kind: String, image: BlobRef, sealedText: String) {
        self.documentId = documentId
        self.owner = owner
        self.kind = kind
        self.image = image
        self.sealedText = sealedText
    }

    package var aggregateID: String { documentId }

    package func validate() throws {
        try Validate.prefixed(documentId, "doc_", .lowerHex, count: 32, field: "/documentId", "doc_ followed by 32 lowercase hex digits")
        try owner.validate(field: "/owner")
        try Validate.oneOf(kind, Self.kinds, field: "/kind")
        try image.validate(field: "/image")
        try Validate.base64(sealedText, 28...300_000, field: "/sealedText")
    }
}

/// `shieldai.document.deleted.v1`: its owner deleted it; the image is erased from the object store
/// (unless another document holds the same bytes) and the text's key is erased.
package struct DocumentDeleted: EventPayload {
    package static let eventType = EventType(app: "shieldai", aggregate: "document", event: "deleted", major: 1)

    package var documentId: String

    package init(documentId: String) {
        self.documentId = documentId
    }

    package var aggregateID: String { documentId }

    package func validate() throws {
        try Validate.prefixed(documentId, "doc_", .lowerHex, count: 32, field: "/documentId", "doc_ followed by 32 lowercase hex digits")
    }
}
