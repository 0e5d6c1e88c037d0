import Foundation
import MusterEvents
package import MusterLog
import MusterPlatform

/// Organisers publish their civic events and the bills they follow; installs and learners follow
/// them. The routes' domain side: it knows nothing of HTTP.
package struct CivicCalendar: Sendable {
    let log: EventLog
    let runner: ProjectionRunner<CalendarProjection>
    let config: PoPConfig

    package init(log: EventLog, runner: ProjectionRunner<CalendarProjection>, config: PoPConfig) {
        self.log = log
        self.runner = runner
        self.config = config
    }

    /// Publishes (or changes, or cancels) an event of `org`. An event of another organisation is
    /// as unknown as none.
    package func publish(_ event: CivicEventPublished, by actor: String) async throws -> CalendarProjection.Event {
        if let known = await runner.read({ $0.events[event.eventId] }), known.published.org != event.org {
            throw PoPError(.notFound, "no event \(event.eventId.prefix(64)) of yours")
        }
        try Self.checked { try event.validate() }
        let result = try await log.append(event, options: AppendOptions(actor: actor))
        _ = await runner.waitUntilApplied(result.sequence, timeout: .seconds(5))
        guard let stored = await runner.read({ $0.events[event.eventId] }) else { throw PoPError(.notReady, "the calendar is loading; try again") }
        return stored
    }

    /// Records a bill as the organisation now sees it.
    package func track(org: String, number: String, title: String, status: String, nextHearing: String?, url: String,
                       by actor: String) async throws -> CalendarProjection.Bill {
        let normalised = number.uppercased().trimmingCharacters(in: .whitespaces)
        let bill = BillTracked(org: org, billId: Self.billID(org: org, number: normalised), number: normalised, title: title, status: status,
                               nextHearing: nextHearing, url: url)
        try Self.checked { try bill.validate() }
        let result = try await log.append(bill, options: AppendOptions(actor: actor))
        _ = await runner.waitUntilApplied(result.sequence, timeout: .seconds(5))
        guard let stored = await runner.read({ $0.bills[bill.billId] }) else { throw PoPError(.notReady, "the calendar is loading; try again") }
        return stored
    }

    /// Starts or stops following an event or a bill, for a device or a learner.
    package func follow(kind: String, id: String, deviceId: String?, personId: String?, following: Bool) async throws {
        let org: String? = await runner.read { state in
            kind == "event" ? state.events[id.lowercased()]?.published.org : kind == "bill" ? state.bills[id.lowercased()]?.tracked.org : nil
        }
        guard let org else { throw PoPError(.notFound, "no \(kind.prefix(10)) \(id.prefix(64))") }
        let change = FollowChanged(org: org, deviceId: deviceId, personId: personId, kind: kind, id: id.lowercased(), following: following)
        try Self.checked { try change.validate() }
        let result = try await log.append(change, options: AppendOptions(actor: personId.map { "person:\($0)" } ?? "device:\(deviceId ?? "")"))
        _ = await runner.waitUntilApplied(result.sequence, timeout: .seconds(5))
    }

    /// What a follower follows of `org`'s calendar.
    package func followed(by follower: CalendarProjection.Follower) async -> Set<String> {
        await runner.read { state in Set(state.followers.filter { $0.value.contains(follower) }.keys) }
    }

    static func billID(org: String, number: String) -> String { HexIDs.derived("bil_", from: org, number) }

    /// An event's checks as a 422 naming the field.
    static func checked(_ body: () throws -> Void) throws {
        do { try body() } catch let error as EventValidationError {
            let field = error.field.split(separator: "/").first.map(String.init) ?? "body"
            throw PoPError(.invalidField(field), "\(error.field.dropFirst()): \(error.reason)")
        }
    }
}
