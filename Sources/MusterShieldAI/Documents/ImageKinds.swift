/// What an uploaded image really is, from its first bytes (never from what the client says). Pure.
package enum ImageKinds {
    package static let types: Set<String> = ["image/jpeg", "image/png", "image/heic"]

    package static func sniff(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        // ISO base media: `....ftyp` then a HEIF brand.
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8),
           ["heic", "heix", "mif1", "msf1", "heim", "heis"].contains(String(decoding: bytes[8..<12], as: UTF8.self)) {
            return "image/heic"
        }
        return nil
    }
}
