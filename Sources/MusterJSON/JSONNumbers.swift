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

    /// The double a JSON number spells (already checked), without parsing text, when its digits
    /// make a whole number up to 2^53 and its power of ten is within 10^±22: both are then exact
    /// doubles, so one multiplication or division rounds correctly (Clinger's fast path; most
    /// coordinates and amounts). Nil otherwise: the caller parses the text.
    static func fastDouble(_ raw: UnsafeBufferPointer<UInt8>) -> Double? {
        var (index, mantissa, scale) = (0, UInt64(0), 0)
        let negative = raw.first == UInt8(ascii: "-")
        if negative { index = 1 }
        func digit(_ at: Int) -> UInt64? {
            at < raw.count && raw[at] >= UInt8(ascii: "0") && raw[at] <= UInt8(ascii: "9") ? UInt64(raw[at] &- UInt8(ascii: "0")) : nil
        }
        func take(_ value: UInt64) -> Bool {
            mantissa = mantissa &* 10 &+ value
            return mantissa <= 1 << 53 // no overflow before this fails: 10 × 2^53 + 9 fits easily
        }
        while let value = digit(index) {
            guard take(value) else { return nil }
            index += 1
        }
        if index < raw.count, raw[index] == UInt8(ascii: ".") {
            index += 1
            while let value = digit(index) {
                guard take(value) else { return nil }
                (index, scale) = (index + 1, scale - 1)
            }
        }
        if index < raw.count, raw[index] == UInt8(ascii: "e") || raw[index] == UInt8(ascii: "E") {
            index += 1
            let negativeExponent = index < raw.count && raw[index] == UInt8(ascii: "-")
            if index < raw.count, raw[index] == UInt8(ascii: "-") || raw[index] == UInt8(ascii: "+") { index += 1 }
            var exponent = 0
            while let value = digit(index) {
                exponent = exponent * 10 + Int(value)
                guard exponent < 1000 else { return nil }
                index += 1
            }
            scale += negativeExponent ? -exponent : exponent
        }
        guard index == raw.count, (-22...22).contains(scale) else { return nil }
        let magnitude = scale < 0 ? Double(mantissa) / powersOfTen[-scale] : Double(mantissa) * powersOfTen[scale]
        return negative ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

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
