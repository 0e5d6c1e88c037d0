import Foundation
import MusterShieldAI
import Testing

@Suite("Voice enrollment audio: the WAV rules, on real recordings")
struct WAVInspectionTests {
    static func problem(_ bytes: [UInt8]) -> WAVInspection.Problem? {
        do { _ = try WAVInspection.inspect(bytes); return nil } catch { return error }
    }

    /// A 16 kHz mono 16-bit WAV of `samples`.
    static func wav(_ samples: [Int16], rate: UInt32 = 16_000) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)] }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
        let data = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        return Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(rate)
            + le32(rate * 2) + le16(2) + le16(16) + Array("data".utf8) + le32(UInt32(data.count)) + data
    }

    @Test func speechMadeWithEspeakIsAccepted() async throws {
        let audio = try WAVInspection.inspect(try await Recordings.bytes("speech"))
        #expect(audio.sampleRate == 16_000 && (5_000...10_000).contains(audio.durationMs))
        #expect(audio.rms > 0.01)
    }

    @Test func eachBrokenRuleIsNamed() async throws {
        #expect(Self.problem(try await Recordings.bytes("8khz")) == .wrongSampleRate(8000))
        #expect(Self.problem(try await Recordings.bytes("stereo")) == .notMono(channels: 2))
        #expect(Self.problem(try await Recordings.bytes("8bit"))?.rule == "16-bit")
        #expect(Self.problem(try await Recordings.bytes("short"))?.rule == "at-least-5-seconds")
        #expect(Self.problem(try await Recordings.bytes("silence")) == .silent)
        #expect(Self.problem(try await Recordings.bytes("long"))?.rule == "at-most-60-seconds")
        #expect(Self.problem(Self.wav(Array(repeating: Int16.max, count: 16_000 * 6))) == .clipped(percent: 100))
        #expect(Self.problem(Array("RIFF....WAVE".utf8)) == .notWAV)
        #expect(Self.problem(Array("not audio at all".utf8)) == .notWAV)
        #expect(Self.problem([]) == .notWAV)
    }

    /// Point 9 of the authorization review: headers that lie were accepted.
    @Test func aHeaderThatLiesIsRefused() async throws {
        let speech = try await Recordings.bytes("speech")
        func patched(_ offset: Int, _ bytes: [UInt8], in file: [UInt8]? = nil) -> [UInt8] {
            var copy = file ?? speech
            copy.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            return copy
        }
        #expect(Self.problem(patched(4, [0, 0, 0, 0]))?.rule == "consistent-header", "RIFF length 0")
        #expect(Self.problem(patched(4, [0xff, 0xff, 0xff, 0xff]))?.rule == "complete", "RIFF length 0xFFFFFFFF: more than is there")
        let good = Self.wav((0..<16_000 * 6).map { Int16(truncatingIfNeeded: ($0 % 200) * 100 - 10_000) })
        #expect(Self.problem(good) == nil)
        #expect(Self.problem(patched(32, [0, 0], in: good))?.rule == "consistent-header", "block align 0")
        #expect(Self.problem(patched(28, [0, 0, 0, 0], in: good))?.rule == "consistent-header", "byte rate 0")
        // An odd data length, the RIFF length kept true to the file.
        var odd = good + [0]
        odd.replaceSubrange(40..<44, with: [UInt8((good.count - 44 + 1) & 0xff), UInt8((good.count - 44 + 1) >> 8 & 0xff), UInt8((good.count - 44 + 1) >> 16), 0])
        odd.replaceSubrange(4..<8, with: [UInt8((odd.count - 8) & 0xff), UInt8((odd.count - 8) >> 8 & 0xff), UInt8((odd.count - 8) >> 16), 0])
        #expect(Self.problem(odd)?.rule == "consistent-header", "odd data length")
    }

    @Test func aTruncatedHeaderOrA2GBDeclaredLengthIsTruncatedNotAWait() async throws {
        let speech = try await Recordings.bytes("speech")
        #expect(Self.problem(Array(speech.prefix(30)))?.rule == "complete" || Self.problem(Array(speech.prefix(30))) == .notWAV)
        // The data chunk declares 2 GB; the file holds 7 seconds.
        var huge = speech
        let data = try #require((12..<huge.count - 4).first { String(decoding: huge[$0..<$0 + 4], as: UTF8.self) == "data" })
        huge.replaceSubrange(data + 4..<data + 8, with: [0xff, 0xff, 0xff, 0x7f])
        guard case .truncated(let declared, let present) = Self.problem(huge) else { Issue.record("not truncated"); return }
        #expect(declared == 0x7fff_ffff && present < 300_000)
        // The header alone tells an 8 kHz file apart, from its first bytes.
        let narrow = try await Recordings.bytes("8khz")
        #expect(throws: WAVInspection.Problem.wrongSampleRate(8000)) { _ = try WAVInspection.checkHeader(Array(narrow.prefix(64))) }
        #expect(try WAVInspection.checkHeader(Array(speech.prefix(8))) == nil)
    }
}
