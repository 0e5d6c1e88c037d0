package import MusterJSON

/// A value that writes itself member by member (`JSONObjectEncodable`: a fold's snapshot state)
/// against its `Encodable` conformance, which loading reads back: both texts, nested as a
/// snapshot nests its state (where the encoder takes the conformance), with the encoder's keys
/// in order and as they come.
package enum HandWritten {
    package static func bothWays<T: JSONObjectEncodable>(_ value: T) throws -> [(sortedKeys: Bool, byHand: String, codable: String)] {
        try [true, false].map { sorted in
            var encoder = JSONBytesEncoder()
            encoder.sortedKeys = sorted
            let byHand = try encoder.encodeObject { try $0.object("state") { try value.encodeMembers(&$0) } }
            let codable = try encoder.encode(NestedState(state: value))
            return (sorted, String(decoding: byHand, as: UTF8.self), String(decoding: codable, as: UTF8.self))
        }
    }
}

/// A value under `state`, written through its conformance.
private struct NestedState<T: Encodable>: Encodable {
    var state: T
}
