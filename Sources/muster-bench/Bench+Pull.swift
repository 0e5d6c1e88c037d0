import ArgumentParser
import MusterCommandLine
import MusterLog
import MusterNATS

extension Bench {
    /// The pull consumer alone, nothing decoded or folded: what reading the log costs before any
    /// event is looked at (compare with `replay` for what the fold adds).
    struct Pull: AsyncParsableCommand {
        @Option var batch = 512
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                let name = "bench_pull_\(UInt32.random(in: 0...UInt32.max))"
                var config = ConsumerConfig(durableName: name)
                config.ackPolicy = .none
                config.inactiveThreshold = 60_000_000_000 // gone a minute after the run
                let info = try await log.jetStream.ensureConsumer(stream: log.configuration.eventsStream, config)
                var iterator = PullConsumer(log.jetStream, stream: log.configuration.eventsStream, consumer: name,
                                            batch: batch, expires: .seconds(2)).makeAsyncIterator()
                var count: UInt64 = 0
                var bytes = 0
                let start = ContinuousClock.now
                while count < info.numPending, case .messages(let messages)? = try await iterator.nextBatch(max: batch) {
                    count += UInt64(messages.count)
                    for message in messages { bytes &+= message.payload.count }
                }
                print(#"{"count": \#(count), "pull_per_sec": \#(Int(Double(count) / (ContinuousClock.now - start).seconds)), "bytes": \#(bytes)}"#)
            }
        }
    }
}
