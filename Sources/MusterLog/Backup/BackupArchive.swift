/// A backup's container: a POSIX tar archive (ustar), so `tar tf backup.tar` lists it and `tar xf`
/// takes it apart without Muster. One entry per stream (`streams/<name>.snapshot`, the server's own
/// archive of that stream, untouched), then `manifest.json`.
///
/// Header arithmetic only, no I/O: `BackupWriter` and `BackupReader` do the reading and writing,
/// and the fuzz target reads arbitrary bytes through the same `TarHeader.parse`.
package enum BackupArchive {
    package static let blockSize = 512
    package static let manifestName = "manifest.json"
    package static let streamsFolder = "streams/"

    /// Bytes after an entry's data up to the next block boundary.
    package static func padding(after size: Int64) -> Int64 {
        let rest = size % Int64(blockSize)
        return rest == 0 ? 0 : Int64(blockSize) - rest
    }

    /// Two zero blocks end an archive.
    package static var end: [UInt8] { [UInt8](repeating: 0, count: 2 * blockSize) }

    /// The entries of an archive held whole in memory (the fuzz target's way in; `LogRestore` reads
    /// a file a header at a time through the same `TarIndex`).
    package static func entries(in bytes: [UInt8]) throws(BackupError) -> [TarEntry] {
        var index = TarIndex()
        let total = Int64(bytes.count)
        while !index.ended {
            let start = Int(index.next)
            try index.read(index.next + Int64(blockSize) <= total ? bytes[start ..< start + blockSize] : nil, archiveSize: total)
        }
        return index.entries
    }
}

/// An archive's entries as its headers are read one after another, wherever the bytes come from.
package struct TarIndex: Sendable {
    /// The entries so far, in the archive's order.
    package private(set) var entries: [TarEntry] = []
    /// Where the next header starts.
    package private(set) var next: Int64 = 0
    /// The end marker was read.
    package private(set) var ended = false
    private var names = Set<String>()
    /// The most entries read (one per stream and the manifest).
    static let maxEntries = 10_000

    package init() {}

    /// Reads the header block at `next`; nil when the archive has no block there (cut short).
    package mutating func read(_ block: ArraySlice<UInt8>?, archiveSize: Int64) throws(BackupError) {
        guard let block else { throw BackupError(.unreadableArchive, "the archive ends without its end marker (truncated?)") }
        guard let header = try TarHeader.parse(block) else {
            ended = true
            return
        }
        let entry = try TarEntry(header: header, dataOffset: next + Int64(BackupArchive.blockSize), archiveSize: archiveSize)
        guard names.insert(entry.name).inserted, names.count <= Self.maxEntries else {
            throw BackupError(.unreadableArchive, "the archive holds \(entry.name) twice, or too many entries")
        }
        entries.append(entry)
        next = entry.dataOffset + entry.size + BackupArchive.padding(after: entry.size)
    }
}

/// One file in the archive: where its bytes are.
package struct TarEntry: Sendable, Equatable {
    package var name: String
    package var dataOffset: Int64
    package var size: Int64

    /// Checks that the entry's data lies inside an archive of `archiveSize` bytes.
    package init(header: TarHeader, dataOffset: Int64, archiveSize: Int64) throws(BackupError) {
        guard header.size <= archiveSize - dataOffset else {
            throw BackupError(.unreadableArchive, "\(header.name) claims \(header.size) bytes, past the end of the archive (truncated?)")
        }
        name = header.name
        self.dataOffset = dataOffset
        size = header.size
    }
}

/// A ustar header block: the name and size of a regular file (all a backup holds).
package struct TarHeader: Sendable, Equatable {
    package var name: String
    package var size: Int64
    /// Seconds since 1970, for `tar tv`.
    package var modified: Int64

    package init(name: String, size: Int64, modified: Int64) {
        self.name = name
        self.size = size
        self.modified = modified
    }

    private static let nameField = 0 ..< 100
    private static let sizeField = 124 ..< 136
    private static let checksumField = 148 ..< 156
    private static let typeField = 156
    private static let magicField = 257 ..< 263

    /// The 512-byte block. Names up to 100 bytes (stream names are at most 255 characters but
    /// Muster's are short; a longer one is refused rather than cut). Sizes past the 11 octal digits
    /// (8 GiB) use the base-256 form GNU tar and bsdtar read.
    package func encoded() throws(BackupError) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= 100 else {
            throw BackupError(.unreadableArchive, "entry name \(name) does not fit a tar header")
        }
        var block = [UInt8](repeating: 0, count: BackupArchive.blockSize)
        block.replaceSubrange(0 ..< nameBytes.count, with: nameBytes)
        Self.octal(0o600, into: &block, 100 ..< 108) // as the file itself: a backup holds everything
        Self.octal(0, into: &block, 108 ..< 116)
        Self.octal(0, into: &block, 116 ..< 124)
        if size < 0o77777777777 {
            Self.octal(size, into: &block, Self.sizeField)
        } else {
            block[124] = 0x80
            var value = UInt64(size)
            for index in stride(from: 135, through: 128, by: -1) {
                block[index] = UInt8(value & 0xff)
                value >>= 8
            }
        }
        Self.octal(max(0, modified), into: &block, 136 ..< 148)
        block[Self.typeField] = UInt8(ascii: "0")
        block.replaceSubrange(Self.magicField, with: Array("ustar\0".utf8))
        block.replaceSubrange(263 ..< 265, with: Array("00".utf8))
        block.replaceSubrange(Self.checksumField, with: [UInt8](repeating: UInt8(ascii: " "), count: 8))
        let sum = block.reduce(0) { $0 + Int64($1) }
        Self.octal(sum, into: &block, 148 ..< 155)
        block[155] = UInt8(ascii: " ")
        return block
    }

    /// Reads a header block; nil for a zero block (the end). Anything but a well-formed regular
    /// file's header with a good checksum is an error naming what is wrong.
    package static func parse(_ block: ArraySlice<UInt8>) throws(BackupError) -> TarHeader? {
        guard block.count == BackupArchive.blockSize else {
            throw BackupError(.unreadableArchive, "a header of \(block.count) bytes, not \(BackupArchive.blockSize)")
        }
        let base = block.startIndex
        if block.allSatisfy({ $0 == 0 }) { return nil }
        var sum: Int64 = 0
        for (index, byte) in block.enumerated() {
            sum += Self.checksumField.contains(index) ? Int64(UInt8(ascii: " ")) : Int64(byte)
        }
        guard let stored = octalValue(block[base + checksumField.lowerBound ..< base + checksumField.upperBound]), stored == sum else {
            throw BackupError(.unreadableArchive, "a header's checksum does not match (not a backup, or damaged)")
        }
        guard Array(block[base + magicField.lowerBound ..< base + magicField.upperBound - 1]) == Array("ustar".utf8) else {
            throw BackupError(.unreadableArchive, "not a ustar archive")
        }
        let type = block[base + typeField]
        guard type == UInt8(ascii: "0") || type == 0 else {
            throw BackupError(.unreadableArchive, "an entry that is not a regular file (type \(type))")
        }
        let nameBytes = block[base ..< base + nameField.upperBound].prefix { $0 != 0 }
        guard !nameBytes.isEmpty, let name = String(validating: nameBytes, as: UTF8.self) else {
            throw BackupError(.unreadableArchive, "an entry without a readable name")
        }
        let sizeBytes = block[base + sizeField.lowerBound ..< base + sizeField.upperBound]
        let size: Int64
        if let first = sizeBytes.first, first & 0x80 != 0 {
            // Base-256: the rest is a big-endian number; a first byte with more than the flag or
            // a value past Int64 is refused.
            // of the 11 bytes, the first three zero and the fourth below 0x80 to fit an Int64.
            let number = sizeBytes.dropFirst()
            guard first == 0x80, number.prefix(3).allSatisfy({ $0 == 0 }),
                  let top = number.dropFirst(3).first, top < 0x80 else {
                throw BackupError(.unreadableArchive, "\(name): a size out of range")
            }
            size = number.reduce(Int64(0)) { ($0 << 8) | Int64($1) }
        } else {
            guard let value = octalValue(sizeBytes) else {
                throw BackupError(.unreadableArchive, "\(name): an unreadable size")
            }
            size = value
        }
        let modified = octalValue(block[base + 136 ..< base + 148]) ?? 0
        return TarHeader(name: name, size: size, modified: modified)
    }

    /// An octal field: digits, optionally padded with spaces before and NUL or spaces after.
    private static func octalValue(_ field: ArraySlice<UInt8>) -> Int64? {
        let afterSpaces = field.drop { $0 == UInt8(ascii: " ") }
        let digits = afterSpaces.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }
        guard !digits.isEmpty, digits.count <= 21 else { return nil }
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 8)
            guard !overflow else { return nil }
            value = shifted + Int64(digit - UInt8(ascii: "0"))
        }
        let rest = afterSpaces.dropFirst(digits.count)
        guard rest.allSatisfy({ $0 == 0 || $0 == UInt8(ascii: " ") }) else { return nil }
        return value
    }

    /// Writes `value` as zero-padded octal digits filling the field but its last byte (a NUL).
    private static func octal(_ value: Int64, into block: inout [UInt8], _ field: Range<Int>) {
        let width = field.count - 1
        var digits = Array(String(value, radix: 8).utf8)
        if digits.count < width { digits = [UInt8](repeating: UInt8(ascii: "0"), count: width - digits.count) + digits }
        block.replaceSubrange(field.lowerBound ..< field.lowerBound + width, with: digits.suffix(width))
        block[field.upperBound - 1] = 0
    }
}
