import ArgumentParser
import Foundation
import MusterCommandLine
import MusterEvents
import MusterLog
import MusterNATS
import MusterNotifications
import MusterPlatform

extension Bench {
    /// Folds the later issues added, each loaded with events as Muster appends them and rebuilt
    /// from sequence 1, against raw pull consume of as many messages of their stored size
    /// (`bench/folds.sh`): the people fold over sessions started (every sign-in appends one), and the
    /// notifications fold over reminders scheduled (each walk booked schedules two).
    enum LaterFold: String, ExpressibleByArgument, CaseIterable {
        case sessions, reminders
    }

    struct FoldLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fold-load",
                                                        abstract: "Appends --count events of a later fold's busiest type; prints their stored size.")
        @Option var fold: LaterFold
        @Option var count = 500_000
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                var done = 0
                while done < count {
                    let range = done..<min(count, done + 50_000)
                    switch fold {
                    case .sessions: try await Bench.appendAll(range.map(Self.session), to: log)
                    case .reminders: try await Bench.appendAll(range.map(Self.reminder), to: log)
                    }
                    done = range.upperBound
                }
                let bytes = switch fold {
                case .sessions: try log.prepare(Self.session(0)).payload.count
                case .reminders: try log.prepare(Self.reminder(0)).payload.count
                }
                print(#"{"count": \#(count), "event_bytes": \#(bytes)}"#)
            }
        }

        static func uuid(_ index: Int, _ kind: Int) -> String {
            String(format: "00000000-0000-4%03lx-8000-%012lx", kind, index)
        }

        /// A sign-in's session: a person of one of 1,000 organisations, a refresh token's hash, a device.
        static func session(_ index: Int) -> SessionStarted {
            SessionStarted(sessionId: uuid(index, 1), personId: uuid(index / 3, 2), orgId: uuid(index % 1000, 3), app: "offleash",
                           refreshHash: String(repeating: String(format: "%016llx", UInt64(index) &* 0x9E37_79B9_7F4A_7C15), count: 4),
                           refreshExpiresAt: "2027-01-06T10:00:00.000Z", deviceName: "iPhone", platform: "ios")
        }

        /// A walk's reminder to its customer, an hour before it, as OFFLEASH's rules schedule it.
        static func reminder(_ index: Int) -> NotificationScheduled {
            let booking = uuid(index, 4), person = uuid(index / 4, 2)
            return NotificationScheduled(key: "offleash:walk-reminder:\(booking):\(person)",
                                         notice: Notice(app: "offleash", category: "walk-reminder", personId: person, about: "booking:\(booking)",
                                                        title: "Walk in an hour", body: "Your 30 minute walk starts in an hour.",
                                                        screen: "booking", id: booking),
                                         dueAt: Timestamp.string(millis: 1_800_000_000_000 + Int64(index) * 1000), channels: ["push", "email"],
                                         reason: "reminder")
        }
    }

    struct FoldReplay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fold-replay", abstract: "Rebuilds a later fold from sequence 1.")
        @Option var fold: LaterFold
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await Bench.withBenchLog(common) { log in
                switch fold {
                case .sessions: try await Bench.timeRebuild(PeopleProjection.self, log: log) { $0.sessions.count }
                case .reminders: try await Bench.timeRebuild(NotificationsProjection.self, log: log) { $0.pending.count }
                }
            }
        }
    }

    /// Appends the payloads in one pipelined batch; the first refused one fails the command.
    static func appendAll<P: EventPayload>(_ payloads: [P], to log: EventLog) async throws {
        for result in try await log.appendAll(payloads) {
            if case .failure(let error) = result { throw CommandFailure("append failed: \(error)") }
        }
    }
}
