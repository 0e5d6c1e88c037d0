import Foundation
package import Logging

/// One JSON object per line on standard error: what log shippers in compose and Kubernetes read.
/// `{"ts":"…","level":"info","label":"muster","msg":"…","source":"MusterNATS","nats":"…",…}`
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level
    let label: String

    package init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata { fields[key] = "\(value)" }
        for (key, value) in event.metadata ?? [:] { fields[key] = "\(value)" }
        fields["ts"] = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["msg"] = "\(event.message)"
        fields["source"] = event.source
        guard var line = try? Self.encoder.encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line) // one write per line, so lines never interleave
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// How `muster` writes logs: `text` (key=value, for people) or `json` (for machines).
package enum LogFormat: String, Sendable, CaseIterable {
    case text, json

    package func handler(label: String, level: Logger.Level) -> any LogHandler {
        switch self {
        case .json:
            return JSONLogHandler(label: label, level: level)
        case .text:
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
