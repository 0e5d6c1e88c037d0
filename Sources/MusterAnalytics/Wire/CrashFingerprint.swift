import Foundation
import Crypto

/// Groups crashes: the exception type plus the top frames (the app's own when there are any),
/// with what changes between builds taken out — addresses, offsets, line numbers, closure
/// numbers, generic arguments — so one bug is one group across versions.
package enum CrashFingerprint {
    package static let topFrames = 3

    package static func make(type: String, frames: [CrashRecorded.Frame]) -> String {
        let text = ([type] + topFrameNames(frames)).joined(separator: "\n")
        let digest = SHA256.hash(data: Array(text.utf8))
        return "fp_" + digest.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// `closure #2 in BookingView.submit() + 124` → `closure in BookingView.submit()`.
    package static func normalize(_ function: String) -> String {
        var s = function
        if let plus = s.range(of: " + ", options: .backwards) { s = String(s[..<plus.lowerBound]) }
        var out = ""
        var depth = 0
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "<" { depth += 1 } else if c == ">" { depth = max(0, depth - 1) } else if depth == 0 { out.append(c) }
            i = s.index(after: i)
        }
        // `closure #3` → `closure`, `0x1a2b3c` → ``.
        let words = out.split(separator: " ").filter { word in
            !(word.hasPrefix("#") && word.dropFirst().allSatisfy(\.isNumber)) && !word.hasPrefix("0x")
        }
        return words.joined(separator: " ")
    }
}


extension CrashFingerprint {
    /// The frames the fingerprint is made of, normalised, for people to read.
    package static func topFrameNames(_ frames: [CrashRecorded.Frame]) -> [String] {
        let own = frames.filter(\.inApp)
        return (own.isEmpty ? frames : own).prefix(topFrames).map { normalize($0.function) }
    }
}
