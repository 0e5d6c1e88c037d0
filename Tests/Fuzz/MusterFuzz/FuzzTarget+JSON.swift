import MusterEvents
import MusterJSON

extension FuzzTarget {
    /// The JSON scanner and coders: any bytes are taken or refused without trapping within the
    /// limits, and whatever is taken reads back the same after our encoder wrote it.
    static func json(_ bytes: [UInt8]) {
        guard let value = try? JSONBytesDecoder().decode(JSONValue.self, from: bytes) else { return }
        guard let written = try? JSONBytesEncoder().encode(value) else {
            require(false, "a decoded value cannot be encoded: \(value)")
            return
        }
        let again = try? JSONBytesDecoder().decode(JSONValue.self, from: written)
        require(again == value, "\(String(decoding: written, as: UTF8.self)) reads back as \(String(describing: again))")
    }
}
