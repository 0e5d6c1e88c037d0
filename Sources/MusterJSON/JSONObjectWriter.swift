/// Writes one object member by member, for the few hot writers that lay out their fields by hand
/// (the stored envelope). Members given in key order are written as they come; otherwise the
/// object is put in order when it closes, as the encoder does.
public struct JSONObjectWriter {
    let state: EncodingState
    let id: Int

    public mutating func string(_ key: String, _ value: String?) throws {
        guard let value else { return }
        do { try state.beginEntry(id, key: key) } catch { throw error.encodingError([JSONKey(stringValue: key)]) }
        state.writeStringValue(value)
    }

    public mutating func encode<T: Encodable>(_ key: String, _ value: T) throws {
        do { try state.beginEntry(id, key: key) } catch { throw error.encodingError([JSONKey(stringValue: key)]) }
        try state.encodeValue(value, parent: nil, key: JSONKey(stringValue: key))
    }
}

extension JSONBytesEncoder {
    /// One object whose members `body` writes.
    public func encodeObject(_ body: (inout JSONObjectWriter) throws -> Void) throws -> [UInt8] {
        let state = EncodingState(sortedKeys: sortedKeys, escapesSlashes: escapesSlashes)
        var writer = JSONObjectWriter(state: state, id: state.open(object: true))
        try body(&writer)
        state.closeAll()
        return state.out
    }
}
