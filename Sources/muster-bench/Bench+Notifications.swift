import ArgumentParser
import Foundation
import MusterCommandLine
import MusterEvents
import MusterLog
import MusterNotifications
import MusterOFFLEASH
import MusterPlatform

extension Bench {
    /// OFFLEASH bookings for the notifications bench, straight into the log (as the routes would
    /// append them): `setup` makes `bookings` walks, each of its own customer with one iPhone and its
    /// own walker (no device), three days ahead; `confirm` confirms `--count` of them from `--from`
    /// (all by default) as fast as the log takes it, or `--rate` a second, and prints when it
    /// began (seconds since 1970); with `--times FILE` each booking's id and when the log
    /// acknowledged its confirmation (milliseconds), one per line. `remind` schedules, for `--count`
    /// of those walks from `--from`, a push reminder due at once to its customer (as the rules
    /// schedule one, with a key of this run's own): what the scheduler sends as soon as it sees it.
    struct NotifyLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "notify-load")
        @Argument var phase: String
        @Option var bookings = 10_000
        @Option var times: String?
        @Option var from = 0
        @Option var count: Int?
        @Option var rate: Double?
        @OptionGroup var common: CommonOptions

        static func uuid(_ kind: UInt64, _ i: Int) -> String {
            String(format: "%08llx-0000-4000-8000-%012llx", kind, UInt64(i))
        }

        func run() async throws {
            guard ["setup", "confirm", "remind"].contains(phase) else { throw ValidationError("phase is setup, confirm or remind") }
            let service = Self.uuid(0x5e, 0), org = Self.uuid(0x06, 0)
            let began = Date().timeIntervalSince1970
            try await common.withLog { log, _, _ in
                var pending: [Task<String, any Error>] = []
                var acknowledged = ""
                func append(_ event: some EventPayload, id: String = "") async throws {
                    pending.append(Task {
                        _ = try await log.append(event)
                        return "\(id) \(Int64(Date().timeIntervalSince1970 * 1000))\n"
                    })
                    if pending.count == 512 { for task in pending { acknowledged += try await task.value }; pending.removeAll() }
                }
                if phase == "setup" {
                    try await append(ServiceDefined(serviceId: service, orgId: org, name: "30 minute walk", durationMinutes: 30, priceCents: 2500, isActive: true))
                    let day = Date().addingTimeInterval(3 * 86_400).timeIntervalSince1970.rounded(.down)
                    for i in 0..<bookings {
                        let customer = Self.uuid(0xc0, i)
                        let settings = DeviceSettings(locale: "en-US", timeZone: "America/Chicago", topics: [], cells: [])
                        try await append(DeviceRegistered(deviceId: String(format: "dev_%016llx%016llx", UInt64(0x0ff1ea5e), UInt64(i)), app: "offleash",
                                                          platform: "ios", token: String(format: "%048llx%016llx", UInt64(0x0ff1ea5e), UInt64(i + 1)),
                                                          bundleId: "com.offleash.ios", environment: "production", settings: settings, personId: customer))
                        let start = Int64(day) * 1000 + Int64(i) * 60_000
                        try await append(WalkBooked(bookingId: Self.uuid(0xb0, i), walkerId: Self.uuid(0xa0, i), customerId: customer, serviceId: service,
                                                    locationId: Self.uuid(0x10, i), start: Timestamp.string(millis: start, fraction: false),
                                                    end: Timestamp.string(millis: start + 1_800_000, fraction: false), priceCents: 2500))
                    }
                } else if phase == "remind" {
                    let due = Timestamp.string(millis: Int64(began * 1000))
                    for i in from..<(from + (count ?? bookings - from)) {
                        let booking = Self.uuid(0xb0, i), customer = Self.uuid(0xc0, i)
                        try await append(NotificationScheduled(key: "offleash:walk-reminder:\(booking):\(customer):\(Int64(began))",
                                                               notice: Notice(app: "offleash", category: "walk-reminder", personId: customer,
                                                                              about: "booking:\(booking)", title: "Walk in an hour",
                                                                              body: "Your 30 minute walk starts in an hour.", screen: "booking", id: booking),
                                                               dueAt: due, channels: ["push"], reason: "reminder"))
                    }
                } else {
                    let clock = ContinuousClock(), begun = clock.now
                    for (n, i) in (from..<(from + (count ?? bookings - from))).enumerated() {
                        if let rate, rate > 0 { try await clock.sleep(until: begun + .seconds(Double(n) / rate)) }
                        try await append(WalkChanged(bookingId: Self.uuid(0xb0, i), walkerId: Self.uuid(0xa0, i), change: "confirmed", by: OFFLEASHRole.walker.rawValue),
                                         id: Self.uuid(0xb0, i))
                    }
                }
                for task in pending { acknowledged += try await task.value }
                if let times, phase == "confirm" { try acknowledged.write(toFile: times, atomically: true, encoding: .utf8) }
            }
            print(String(format: "%.3f", began))
        }
    }
}
