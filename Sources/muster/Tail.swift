import ArgumentParser
import Foundation
import MusterCommandLine
import MusterEvents
import MusterLog
import MusterNATS

struct Tail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow the log: one line per event (sequence, subject, data).",
        discussion: "FILTER is a subject wildcard such as events.platform.> or events.*.apikey.>; default events.>.")

    @Argument(help: "Subject filter.")
    var filter: String = "events.>"

    @Option(name: .long, help: "Start at this stream sequence (default: only new events, unless --all).")
    var from: UInt64?

    @Flag(name: .long, help: "Start at the first event.")
    var all = false

    @Option(name: .long, help: "Stop after this many events.")
    var count: Int?

    @Flag(name: .long, help: "Stop once the end of the log is reached instead of following it.")
    var noFollow = false

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await common.withLog { log, _, _ in
            let name = "tail_\(UInt32.random(in: .min ... .max))"
            var config = ConsumerConfig(durableName: name)
            config.ackPolicy = .none
            config.filterSubject = filter
            config.inactiveThreshold = 30_000_000_000
            config.memStorage = true
            if let from { config.deliverPolicy = .byStartSequence; config.optStartSeq = from }
            else { config.deliverPolicy = all ? .all : .new }
            try await log.jetStream.ensureConsumer(stream: log.configuration.eventsStream, config)
            var seen = 0
            var events = PullConsumer(log.jetStream, stream: log.configuration.eventsStream, consumer: name, batch: 256,
                                      expires: .seconds(1)).makeAsyncIterator()
            while let next = try await events.nextEvent() {
                guard case .message(let message) = next else {
                    if noFollow { break } else { continue } // .idle: the end of the log, for now
                }
                let sequence = message.delivery.streamSequence
                let line: String
                switch Result(catching: { try log.catalog.decode(subject: message.subject, sequence: sequence, payload: message.payload) }) {
                case .success(let event):
                    let data = (try? String(decoding: JSONEncoder.compact.encode(AnyPayload(event.payload)), as: UTF8.self)) ?? "?"
                    line = "\(sequence)\t\(event.time)\t\(message.subject)\t\(data)"
                case .failure(let error):
                    line = "\(sequence)\t-\t\(message.subject)\tINVALID: \(error)"
                }
                FileHandle.standardOutput.write(Data((line + "\n").utf8)) // unbuffered, so a pipe sees each event at once
                seen += 1
                if let count, seen >= count { break }
                if noFollow && message.delivery.pending == 0 { break }
            }
            _ = try? await log.jetStream.deleteConsumer(stream: log.configuration.eventsStream, name: name)
        }
    }
}

struct AnyPayload: Encodable {
    let payload: any EventPayload
    init(_ payload: any EventPayload) { self.payload = payload }
    func encode(to encoder: any Encoder) throws { try payload.encode(to: encoder) }
}

extension JSONEncoder {
    /// Made once: tail encodes every event it prints with it.
    static let compact: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
