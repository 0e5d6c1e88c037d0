/// Numbers without Foundation: whole numbers parsed from their digits with overflow checked, and
/// written back digit by digit; floating point through the standard library's shortest exact form.
enum JSONNumbers {
    /// The integer `raw` spells (`-?[0-9]+`, already checked), or nil if it does not fit in `T`.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ raw: UnsafeBufferPointer<UInt8>) -> T? {
        guard !raw.isEmpty else { return nil }
        let negative = raw[0] == UInt8(ascii: "-")
        if negative, !T.isSigned { return raw.count == 2 && raw[1] == UInt8(ascii: "0") ? 0 : nil }
        var value: T = 0
        for byte in raw[(negative ? 1 : 0)...] {
            let digit = T(byte &- UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            // Built downwards when negative, so Int.min fits.
            let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    /// The decimal digits of `value` (a minus sign first when negative), for the length of `body`.
    static func withDigits<T: FixedWidthInteger, R>(_ value: T, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0) // 48 bytes: room for 128-bit values and a sign
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = value.magnitude
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0 && position > 1
            if value < 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[position...]))
        }
    }

    /// The shortest text that reads back as exactly `value` (`1.5`, `1e+20`), without a trailing
    /// `.0` on whole numbers, as Foundation writes them; nil for NaN and infinities.
    static func text<T: BinaryFloatingPoint & CustomStringConvertible>(_ value: T) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
