import MusterJSON
@testable import MusterShieldAI

extension FuzzTarget {
    /// ShieldAI's uploads: the WAV header check on a prefix, the whole inspection, the tRPC body
    /// that carries the file as base64, image sniffing and the document scan's body.
    static func voice(_ bytes: [UInt8]) {
        if let audio = try? WAVInspection.inspect(bytes) {
            require(audio.sampleRate == 16_000 && (5_000...60_000).contains(audio.durationMs), "an accepted file keeps the rules")
            require(audio.peak <= 1 && audio.rms <= 1, "levels are fractions of full scale")
        }
        _ = try? WAVInspection.checkHeader(Array(bytes.prefix(64)))
        _ = try? JSONBytesDecoder().decode(TRPCEnrollment.self, from: bytes)
        // Document scans: what an image really is, and the scan's body.
        if let type = ImageKinds.sniff(bytes) { require(ImageKinds.types.contains(type), "a sniffed type is one we store") }
        _ = try? JSONBytesDecoder().decode(DocumentRequest.self, from: bytes)
    }
}
