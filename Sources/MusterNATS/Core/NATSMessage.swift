import CNats
public import Foundation

/// Message headers: case-sensitive names, each with one or more values, in insertion order.
public struct NATSHeaders: Sendable, Hashable, Sequence {
    private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(_ pairs: [String: String]) {
        for (name, value) in pairs.sorted(by: { $0.key < $1.key }) { fields.append((name, value)) }
    }

    public subscript(name: String) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            fields.removeAll { $0.name == name }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }
    public var isEmpty: Bool { fields.isEmpty }
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: NATSHeaders, rhs: NATSHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }
    public func hash(into hasher: inout Hasher) {
        for field in fields { hasher.combine(field.name); hasher.combine(field.value) }
    }
}

/// A message received from NATS, copied out of libnats so it outlives the C message.
public struct NATSMessage: Sendable {
    public var subject: String
    public var replyTo: String?
    public var headers: NATSHeaders
    public var payload: Data

    public init(subject: String, replyTo: String? = nil, headers: NATSHeaders = .init(), payload: Data = Data()) {
        self.subject = subject
        self.replyTo = replyTo
        self.headers = headers
        self.payload = payload
    }

    /// The status code the server put in the header line (`NATS/1.0 408 Request Timeout`), if any.
    public var status: Int? { headers["Status"].flatMap { Int($0) } }
    public var statusDescription: String? { headers["Description"] }

    /// Copies a libnats message. The caller still owns (and destroys) `msg`.
    init(copying msg: OpaquePointer) {
        subject = String(cString: natsMsg_GetSubject(msg))
        replyTo = natsMsg_GetReply(msg).flatMap { $0.pointee == 0 ? nil : String(cString: $0) }
        let length = Int(natsMsg_GetDataLength(msg))
        if length > 0, let data = natsMsg_GetData(msg) {
            payload = Data(bytes: data, count: length)
        } else {
            payload = Data()
        }
        headers = NATSHeaders()
        var keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        var count: Int32 = 0
        guard natsMsgHeader_Keys(msg, &keys, &count) == NATS_OK, let keys else { return }
        defer { free(keys) }
        for index in 0..<Int(count) {
            guard let key = keys[index] else { continue }
            var values: UnsafeMutablePointer<UnsafePointer<CChar>?>?
            var valueCount: Int32 = 0
            guard natsMsgHeader_Values(msg, key, &values, &valueCount) == NATS_OK, let values else { continue }
            defer { free(values) }
            let name = String(cString: key)
            for v in 0..<Int(valueCount) {
                if let value = values[v] { headers.add(name, String(cString: value)) }
            }
        }
    }
}

/// Builds a libnats message for publishing; the returned pointer is the caller's to destroy.
func makeCMessage(subject: String, replyTo: String?, headers: NATSHeaders, payload: Data) throws -> OpaquePointer {
    var msg: OpaquePointer?
    let status = payload.withUnsafeBytes { raw -> natsStatus in
        let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
        return natsMsg_Create(&msg, subject, replyTo, base, Int32(raw.count))
    }
    try check(status, "create message for \(subject)")
    guard let msg else { throw NATSError(.libnats, "natsMsg_Create returned no message") }
    for field in headers {
        let s = natsMsgHeader_Add(msg, field.name, field.value)
        if s != NATS_OK {
            natsMsg_Destroy(msg)
            throw NATSError.status(s, "set header \(field.name)")
        }
    }
    return msg
}
