import MusterLog

extension FuzzTarget {
    /// A backup file handed to `muster restore` (it may come from anywhere: a bucket, a colleague,
    /// a damaged disk): the tar headers, the entries they describe, and the manifest. Whatever the
    /// bytes, an entry lies inside the archive, and a manifest that passes names only streams a
    /// subject can hold, each filed under its own name.
    static func backup(_ bytes: [UInt8]) {
        if let entries = try? BackupArchive.entries(in: bytes) {
            for entry in entries {
                require(entry.dataOffset >= 512 && entry.size >= 0 && entry.dataOffset + entry.size <= Int64(bytes.count),
                        "entry \(entry.name) at \(entry.dataOffset)+\(entry.size) lies inside \(bytes.count) bytes")
            }
        }
        if bytes.count >= 512 { _ = try? TarHeader.parse(bytes[0 ..< 512]) }
        if let manifest = try? BackupManifest.decode(bytes) {
            for stream in manifest.streams {
                require(BackupManifest.isStreamName(stream.name) && stream.file == "streams/\(stream.name).snapshot",
                        "a manifest names \(stream.name) filed as \(stream.file)")
            }
        }
    }
}
