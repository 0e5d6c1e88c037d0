import ArgumentParser
import Foundation
import MusterCommandLine
import MusterEvents
import MusterLog

struct Publish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate an event's data against its type and append it to the log.",
        discussion: """
        TYPE is app.aggregate.event.vN (see `muster events`). The file holds the event's data as JSON.
        Prints the stream sequence; an invalid event is refused with the failing field named.
        """)

    @Argument(help: "Event type, e.g. platform.apikey.revoked.v2.")
    var type: String

    @Argument(help: "JSON file with the event data, or - for standard input (the default).")
    var file: String = "-"

    @Option(name: .long, help: "Idempotency key: publishing again with the same key appends nothing new.")
    var idempotencyKey: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        guard let eventType = EventType(type) else {
            throw ValidationError("\(type) is not app.aggregate.event.vN (see `muster events`)")
        }
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
            data = contents
        }
        try await common.withLog { log, _, _ in
            guard log.catalog.contains(eventType) else {
                throw CommandFailure("unknown event type \(type); `muster events` lists them")
            }
            let payload: any EventPayload
            do { payload = try log.catalog.decodeData(eventType, from: data) } catch {
                throw CommandFailure("refused: \(type) \(error)")
            }
            let result = try await log.append(payload, options: AppendOptions(idempotencyKey: idempotencyKey, actor: "cli"))
            print(result.duplicate ? "\(result.sequence) (duplicate: already in the log)" : "\(result.sequence)")
        }
    }
}
