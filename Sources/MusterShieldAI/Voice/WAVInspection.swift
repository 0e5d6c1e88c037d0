import Foundation

/// What a voice enrollment's WAV must be: RIFF/WAVE, PCM 16-bit, 16 kHz, mono (what the app
/// records and the voiceprint model's preprocessing expects), 5 to 60 seconds, not silent and not
/// clipped throughout. `inspect` names the first rule a file breaks. Pure; reads only the bytes it
/// was given (a header that declares more than is there is a truncated file, never a reason to wait
/// or allocate).
package enum WAVInspection {
    package static let sampleRate = 16_000
    package static let minimumSeconds = 5.0
    package static let maximumSeconds = 60.0
    /// The largest acceptable file: 60 s of 16 kHz 16-bit mono and room for other chunks.
    package static let maxBytes = 60 * 16_000 * 2 + 64 * 1024

    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case notWAV
        case truncated(declared: Int, present: Int)
        /// The header contradicts itself or the file (a RIFF length that is not the file's, a
        /// block align or byte rate that PCM 16-bit mono 16 kHz cannot have, an odd data length).
        case inconsistent(String)
        case notPCM(format: Int)
        case not16Bit(bits: Int)
        case wrongSampleRate(Int)
        case notMono(channels: Int)
        case tooShort(seconds: Double)
        case tooLong(seconds: Double)
        case silent
        case clipped(percent: Int)

        /// The rule as the app shows it.
        package var rule: String {
            switch self {
            case .notWAV: "riff-wave"
            case .truncated: "complete"
            case .inconsistent: "consistent-header"
            case .notPCM: "pcm"
            case .not16Bit: "16-bit"
            case .wrongSampleRate: "16-khz"
            case .notMono: "mono"
            case .tooShort: "at-least-5-seconds"
            case .tooLong: "at-most-60-seconds"
            case .silent: "not-silent"
            case .clipped: "not-clipped"
            }
        }

        package var description: String {
            switch self {
            case .notWAV: "not a WAV file: it must be RIFF/WAVE with a fmt and a data chunk"
            case .truncated(let declared, let present): "truncated: the data chunk declares \(declared) bytes, \(present) are present"
            case .inconsistent(let what): "has a header that does not agree with itself or the file: \(what)"
            case .notPCM(let format): "must be PCM (format 1), not format \(format)"
            case .not16Bit(let bits): "must be 16-bit samples, not \(bits)-bit"
            case .wrongSampleRate(let rate): "must be 16 kHz (16000 Hz), not \(rate) Hz"
            case .notMono(let channels): "must be mono, not \(channels) channels"
            case .tooShort(let seconds): "must be at least 5 seconds, not \(String(format: "%.1f", seconds))"
            case .tooLong(let seconds): "must be at most 60 seconds, not \(String(format: "%.1f", seconds))"
            case .silent: "is silent: record again closer to the microphone"
            case .clipped(let percent): "is clipped throughout (\(percent)% of samples at full scale): record again further away"
            }
        }
    }

    package struct Audio: Sendable, Equatable {
        package var sampleRate: Int
        package var samples: Int
        package var durationMs: Int
        /// Root mean square and peak of the samples, as a fraction of full scale.
        package var rms: Double
        package var peak: Double
    }

    /// Checks the header only (the first bytes of an upload): lets a route refuse an 8 kHz or
    /// stereo file before reading the rest. Nil when more bytes are needed to tell.
    package static func checkHeader(_ bytes: [UInt8]) throws(Problem) -> Bool? {
        guard bytes.count >= 12 else { return nil }
        guard text(bytes, 0) == "RIFF", text(bytes, 8) == "WAVE" else { throw .notWAV }
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = text(bytes, offset), size = Int(u32(bytes, offset + 4))
            if id == "fmt " {
                guard offset + 8 + 16 <= bytes.count else { return nil }
                try checkFormat(bytes, at: offset + 8, size: size)
                return true
            }
            guard size <= maxBytes else { throw .notWAV }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// Inspects a whole file.
    package static func inspect(_ bytes: [UInt8]) throws(Problem) -> Audio {
        guard bytes.count >= 12, text(bytes, 0) == "RIFF", text(bytes, 8) == "WAVE" else { throw .notWAV }

        var offset = 12, sawFormat = false
        while offset + 8 <= bytes.count {
            let id = text(bytes, offset), size = Int(u32(bytes, offset + 4))
            let body = offset + 8
            if id == "fmt " {
                guard body + 16 <= bytes.count else { throw .truncated(declared: size, present: bytes.count - body) }
                try checkFormat(bytes, at: body, size: size)
                sawFormat = true
            } else if id == "data" {
                guard sawFormat else { throw .notWAV }
                let present = bytes.count - body
                guard size <= present else { throw .truncated(declared: size, present: present) }
                // The RIFF length is what follows it: more is a file cut short, less (0 included) a lie.
                let riff = Int(u32(bytes, 4))
                if riff > bytes.count - 8 { throw .truncated(declared: riff, present: bytes.count - 8) }
                guard riff == bytes.count - 8 else {
                    throw .inconsistent("the RIFF length says \(riff) bytes follow it, the file has \(bytes.count - 8)")
                }
                guard size % 2 == 0 else { throw .inconsistent("the data length \(size) is not a whole number of 16-bit samples") }
                return try measure(bytes, from: body, count: size)
            }
            guard size <= bytes.count else { throw .truncated(declared: size, present: bytes.count - body) }
            offset = body + size + (size & 1)
        }
        throw .notWAV
    }

    static func checkFormat(_ bytes: [UInt8], at offset: Int, size: Int) throws(Problem) {
        guard size >= 16 else { throw .notWAV }
        var format = Int(u16(bytes, offset))
        let channels = Int(u16(bytes, offset + 2)), rate = Int(u32(bytes, offset + 4)), bits = Int(u16(bytes, offset + 14))
        // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes.
        if format == 0xFFFE, size >= 40, offset + 26 <= bytes.count { format = Int(u16(bytes, offset + 24)) }
        guard format == 1 else { throw .notPCM(format: format) }
        guard bits == 16 else { throw .not16Bit(bits: bits) }
        guard rate == sampleRate else { throw .wrongSampleRate(rate) }
        guard channels == 1 else { throw .notMono(channels: channels) }
        let byteRate = Int(u32(bytes, offset + 8)), blockAlign = Int(u16(bytes, offset + 12))
        guard blockAlign == 2 else { throw .inconsistent("block align \(blockAlign), where 16-bit mono has 2") }
        guard byteRate == sampleRate * 2 else { throw .inconsistent("byte rate \(byteRate), where 16 kHz 16-bit mono has 32000") }
    }

    static func measure(_ bytes: [UInt8], from offset: Int, count: Int) throws(Problem) -> Audio {
        let samples = count / 2
        let seconds = Double(samples) / Double(sampleRate)
        guard seconds >= minimumSeconds else { throw .tooShort(seconds: seconds) }
        guard seconds <= maximumSeconds else { throw .tooLong(seconds: seconds) }
        var sumSquares = 0.0, peak = 0, clipped = 0
        for i in 0..<samples {
            let value = Int(Int16(bitPattern: u16(bytes, offset + 2 * i)))
            let magnitude = abs(value)
            sumSquares += Double(value * value)
            peak = max(peak, magnitude)
            if magnitude >= 32_767 { clipped += 1 }
        }
        let rms = (sumSquares / Double(max(1, samples))).squareRoot() / 32_768
        // Below -60 dBFS RMS with nothing louder than -40 dBFS: nobody spoke.
        guard rms >= 0.001 || Double(peak) / 32_768 >= 0.01 else { throw .silent }
        let percent = Int((Double(clipped) * 100 / Double(max(1, samples))).rounded())
        guard percent < 50 else { throw .clipped(percent: percent) }
        return Audio(sampleRate: sampleRate, samples: samples, durationMs: Int(seconds * 1000), rms: rms, peak: Double(peak) / 32_768)
    }

    static func text(_ bytes: [UInt8], _ offset: Int) -> String {
        guard offset + 4 <= bytes.count else { return "" }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        guard offset + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
