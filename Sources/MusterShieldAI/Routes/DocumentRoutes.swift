import Foundation
package import Hummingbird
import MusterEvents
package import MusterPlatform
package import MusterRuntime

/// `POST /api/shieldai/documents` (`{kind, ocrText, contentType, image: base64}`), `GET` lists the
/// owner's documents with their text, `DELETE /api/shieldai/documents/{id}` removes the image and
/// shreds the text. Signed in as for voice enrollments (a person's token, or the app's key with
/// `documents:scan`, `X-Device-Id` and `X-Device-Secret`).
package enum DocumentRoutes {
    package static let scope = "documents:scan"
    static let maxBody = DocumentScans.maxImageBytes * 4 / 3 + 512 * 1024

    static let access = AccessRule.keyOrPerson(ShieldAIApp.appName, scope: scope)

    package static func add(to routes: Routes<Router<MusterRequestContext>>, documents: DocumentScans, devices: Devices) {
        routes.post("/api/shieldai/documents", access: access) { request, context in
            let owner = try await VoiceRoutes.owner(context, devices: devices)
            let body = try await RequestJSON.decode(DocumentRequest.self, from: request, maxBody: maxBody)
            guard let image = Data(base64Encoded: body.image) else { throw DocumentError(.invalidField("image"), "image must be base64") }
            let opened = try await documents.scan(image: Array(image), declaredType: body.contentType, ocrText: body.ocrText ?? "",
                                                  kind: body.kind, owner: owner.owner)
            return try JSONResponse.make(.created, DocumentAnswer(opened))
        }
        routes.get("/api/shieldai/documents", access: access) { _, context in
            let owner = try await VoiceRoutes.owner(context, devices: devices)
            return try JSONResponse.make(.ok, try await documents.list(owner.principal).map(DocumentAnswer.init))
        }
        routes.delete("/api/shieldai/documents/{id}", access: access) { _, context in
            let owner = try await VoiceRoutes.owner(context, devices: devices)
            try await documents.delete(try context.parameters.require("id"), by: owner.principal)
            return Response(status: .noContent)
        }
    }
}

struct DocumentRequest: Decodable, Sendable {
    var kind: String
    var ocrText: String?
    var contentType: String?
    /// The image, base64.
    var image: String
}

struct DocumentAnswer: Encodable, Sendable {
    var documentId: String
    var kind: String
    var contentType: String
    var sizeBytes: Int
    /// Null once the text can no longer be opened.
    var ocrText: String?
    var createdAt: String

    init(_ opened: DocumentScans.Opened) {
        documentId = opened.documentId
        kind = opened.kind
        contentType = opened.contentType
        sizeBytes = opened.sizeBytes
        ocrText = opened.ocrText
        createdAt = opened.createdAt
    }
}
