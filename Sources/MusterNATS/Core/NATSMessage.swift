import CNats
package import Foundation
import Synchronization

/// Message headers: case-sensitive names, each with one or more values, in insertion order.
package struct NATSHeaders: Sendable, Hashable, Sequence {
    private(set) var fields: [(name: String, value: String)] = []

    package init() {}
    package init(_ pairs: [String: String]) {
        for (name, value) in pairs.sorted(by: { $0.key < $1.key }) { fields.append((name, value)) }
    }

    package subscript(name: String) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            fields.removeAll { $0.name == name }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }
    package var isEmpty: Bool { fields.isEmpty }
    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    package static func == (lhs: NATSHeaders, rhs: NATSHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }
    package func hash(into hasher: inout Hasher) {
        for field in fields { hasher.combine(field.name); hasher.combine(field.value) }
    }
}

/// A message received from NATS (or made to look like one).
///
/// A received message keeps libnats's own message and reads from it: the subject and payload are
/// copied out once, when the message arrives, the reply subject and headers only when asked for:
/// parsing headers would be most of what receiving a message costs, and no fold reads a JetStream
/// delivery's headers.
package struct NATSMessage: Sendable {
    package let subject: String
    package let payload: Data
    /// One reference either way, so a copy of a message costs one retain more than its subject and payload.
    private let parts: Parts

    private enum Parts: Sendable {
        case received(ReceivedMessage)
        case made(MadeParts)
    }

    private final class MadeParts: Sendable {
        let replyTo: String?
        let headers: NATSHeaders
        init(replyTo: String?, headers: NATSHeaders) {
            self.replyTo = replyTo
            self.headers = headers
        }
    }

    package init(subject: String, replyTo: String? = nil, headers: NATSHeaders = .init(), payload: Data = Data()) {
        self.subject = subject
        self.payload = payload
        self.parts = .made(MadeParts(replyTo: replyTo, headers: headers))
    }

    /// Takes ownership of a libnats message: it is destroyed with the last copy of this value.
    init(owning msg: OpaquePointer) {
        parts = .received(ReceivedMessage(msg))
        subject = String(cString: natsMsg_GetSubject(msg))
        let length = Int(natsMsg_GetDataLength(msg))
        if length > 0, let data = natsMsg_GetData(msg) {
            payload = Data(bytes: data, count: length)
        } else {
            payload = Data()
        }
    }

    package var replyTo: String? {
        switch parts {
        case .received(let received): received.withReplyTo { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        case .made(let made): made.replyTo
        }
    }

    /// The reply subject's bytes (empty when there is none), read in place.
    func withReplyTo<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch parts {
        case .received(let received): return try received.withReplyTo(body)
        case .made(let made):
            var reply = made.replyTo ?? ""
            return try reply.withUTF8(body)
        }
    }

    package var headers: NATSHeaders {
        switch parts {
        case .received(let received): received.headers
        case .made(let made): made.headers
        }
    }

    /// One header's first value, read without building the whole `headers` (what a fold asks of
    /// every event it reads).
    package func header(_ name: String) -> String? {
        switch parts {
        case .received(let received): received.header(name)
        case .made(let made): made.headers[name]
        }
    }

    /// The status code the server put in the header line (`NATS/1.0 408 Request Timeout`), if any.
    package var status: Int? { headers["Status"].flatMap { Int($0) } }
    package var statusDescription: String? { headers["Description"] }
}

/// Owns one libnats message. libnats parses headers lazily into the message itself, so the header
/// read is serialised; everything else read from it is immutable once delivered.
final class ReceivedMessage: @unchecked Sendable {
    // @unchecked: `pointer` is read-only except inside `natsMsgHeader_*`, which run under `lock`;
    // it is destroyed in deinit, when no copy of the message can read it any more.
    private let pointer: OpaquePointer
    private let lock = Mutex<NATSHeaders?>(nil)

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { muster_natsMsg_DestroyNow(pointer) }

    func withReplyTo<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let reply = natsMsg_GetReply(pointer) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let length = strlen(reply)
        return try reply.withMemoryRebound(to: UInt8.self, capacity: length) { try body(UnsafeBufferPointer(start: $0, count: length)) }
    }

    var headers: NATSHeaders {
        lock.withLock { cached in
            if let cached { return cached }
            let headers = Self.readHeaders(pointer)
            cached = headers
            return headers
        }
    }

    func header(_ name: String) -> String? {
        lock.withLock { cached in
            if let cached { return cached[name] }
            var value: UnsafePointer<CChar>?
            guard natsMsgHeader_Get(pointer, name, &value) == NATS_OK, let value else { return nil }
            return String(cString: value)
        }
    }

    private static func readHeaders(_ msg: OpaquePointer) -> NATSHeaders {
        var headers = NATSHeaders()
        var keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        var count: Int32 = 0
        guard natsMsgHeader_Keys(msg, &keys, &count) == NATS_OK, let keys else { return headers }
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
        return headers
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
            muster_natsMsg_DestroyNow(msg)
            throw NATSError.status(s, "set header \(field.name)")
        }
    }
    return msg
}
