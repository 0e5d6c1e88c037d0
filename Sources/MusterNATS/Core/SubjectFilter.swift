/// NATS subject filters (`events.analytics.>`, `events.*.apikey.>`) matched on the client, with
/// the server's rules: tokens split on `.`, `*` matches one token, `>` one or more at the end.
package struct SubjectFilter: Sendable, Equatable {
    enum Token: Sendable, Equatable {
        case literal([UInt8])
        case one
        case rest
    }

    let filters: [[Token]]

    package init(_ filters: [String]) {
        self.filters = filters.map { filter in
            filter.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { token in
                switch Array(token) {
                case [UInt8(ascii: "*")]: .one
                case [UInt8(ascii: ">")]: .rest
                case let bytes: .literal(bytes)
                }
            }
        }
    }

    /// True when any of the filters matches `subject`.
    package func matches(_ subject: String) -> Bool {
        var subject = subject
        return subject.withUTF8 { bytes in filters.contains { Self.matches($0, bytes) } }
    }

    static func matches(_ filter: [Token], _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        for (index, token) in filter.enumerated() {
            guard start <= subject.count else { return false }
            var end = start
            while end < subject.count, subject[end] != UInt8(ascii: ".") { end += 1 }
            switch token {
            case .rest:
                return index == filter.count - 1 && end > start
            case .one:
                guard end > start else { return false }
            case .literal(let literal):
                guard end - start == literal.count, literal.withUnsafeBufferPointer({ l in
                    (0..<l.count).allSatisfy { l[$0] == subject[start + $0] }
                }) else { return false }
            }
            start = end + 1
        }
        return start == subject.count + 1
    }
}
