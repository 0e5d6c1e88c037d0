import Foundation

/// The proxies whose `X-Forwarded-For` is believed (the compose gateway): exact addresses and
/// IPv4 ranges in CIDR form, from `MUSTER_TRUSTED_PROXIES`. A request from anyone else is from
/// its socket's peer, whatever headers it sends: a client cannot pick the address its sign-in
/// attempts are counted against.
package struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        var network: UInt32
        var mask: UInt32
    }

    var exact: Set<String> = []
    var ranges: [Range] = []

    package init() {}

    /// `"10.0.0.5, 172.28.0.0/16, ::1"`; nil when an entry is neither an address nor an IPv4 range.
    package init?(parsing list: String) {
        for entry in list.split(separator: ",") {
            let item = entry.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            if let slash = item.firstIndex(of: "/") {
                guard let network = Self.ipv4(item[..<slash]), let bits = Int(item[item.index(after: slash)...]), (0...32).contains(bits) else {
                    return nil
                }
                let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << UInt32(32 - bits)
                ranges.append(Range(network: network & mask, mask: mask))
            } else {
                guard Self.isAddress(item) else { return nil }
                exact.insert(item.lowercased())
            }
        }
    }

    package var isEmpty: Bool { exact.isEmpty && ranges.isEmpty }

    package func contains(_ address: String) -> Bool {
        if exact.contains(address.lowercased()) { return true }
        guard let value = Self.ipv4(Substring(address)) else { return false }
        return ranges.contains { value & $0.mask == $0.network }
    }

    /// The client's address: the socket's peer, unless the peer is a trusted proxy; then the
    /// right-most `X-Forwarded-For` entry that is not itself a trusted proxy (each proxy appends
    /// the peer it saw; what a client wrote itself stands to the left and is never read). A
    /// malformed entry where the client would be ends the walk at the proxy.
    package func clientAddress(peer: String?, forwardedFor: String?) -> String {
        let peer = peer ?? "unknown"
        guard contains(peer), let forwardedFor, forwardedFor.utf8.count <= 4096 else { return peer }
        var client = peer
        for entry in forwardedFor.split(separator: ",", omittingEmptySubsequences: false).reversed() {
            let address = entry.trimmingCharacters(in: .whitespaces)
            guard Self.isAddress(address) else { return client }
            client = address
            if !contains(address) { return address }
        }
        return client
    }

    /// Dotted IPv4, four parts of 0-255.
    static func ipv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }

    /// An IPv4 address, or something shaped like an IPv6 one (hex digits and colons, a dotted tail).
    static func isAddress(_ text: String) -> Bool {
        if ipv4(Substring(text)) != nil { return true }
        let bytes = text.utf8
        return (2...45).contains(bytes.count) && bytes.contains(58)
            && bytes.allSatisfy { ($0 >= 48 && $0 <= 58) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) || $0 == 46 }
    }
}
