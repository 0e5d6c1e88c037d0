@testable import MusterLog
import MusterNATS
import Testing

/// The log's availability as writes and probes report it, without I/O: what `/ready` says, what
/// an outage counts, and which late reports are ignored.
@Suite("Log availability from writes and probes")
struct LogAvailabilityTests {
    let timeout = NATSError(.timeout, "no reply within 5 s")

    @Test func aFailedWriteMakesItUnreachableAndASuccessReachableAgain() {
        let availability = LogAvailability(settleTime: .zero)
        let started = ContinuousClock.now
        availability.failed(startedAt: started, timeout, isWrite: true)
        availability.failed(startedAt: .now, timeout, isWrite: true)
        #expect(!availability.isReachable)
        #expect(availability.snapshot.refused == 2)
        #expect(availability.snapshot.reason?.hasPrefix("timeout") == true)
        #expect(availability.snapshot.unreachableSince != nil)
        availability.succeeded(startedAt: .now)
        #expect(availability.isReachable)
        #expect(availability.snapshot == LogAvailability.Snapshot(reachable: true, unreachableSince: nil, reason: nil, refused: 0))
    }

    /// A full log answers probes; only a write that gets through says it has room again, and it
    /// never counts as unreachable (the watch would otherwise try another NATS server).
    @Test func aFullLogStaysFullUntilAWriteGetsThrough() {
        let availability = LogAvailability(settleTime: .zero)
        availability.failed(startedAt: .now, NATSError(.jetStreamAPI, "maximum bytes exceeded", apiErrorCode: 10077), isWrite: true)
        #expect(availability.snapshot.full && !availability.isReachable)
        #expect(availability.snapshot.reason?.hasPrefix("log_full") == true)
        #expect(availability.unreachableFor == .zero)
        availability.succeeded(startedAt: .now, isProbe: true)
        #expect(availability.snapshot.full, "a probe does not empty a full log")
        availability.succeeded(startedAt: .now)
        #expect(!availability.snapshot.full && availability.isReachable)
        #expect(AppendError.Code.full == EventLog.mapPublishError(NATSError(.jetStreamAPI, "insufficient resources", apiErrorCode: 10047), subject: "s").code)
    }

    /// The watch skips its probe while writes get through; a probe's answer or a write that
    /// failed since is no such proof.
    @Test func onlyARecentWriteSparesTheProbe() {
        let availability = LogAvailability(settleTime: .zero)
        let before = ContinuousClock.now
        availability.succeeded(startedAt: .now, isProbe: true)
        #expect(!availability.wroteSince(before), "a probe is not a write")
        availability.succeeded(startedAt: .now)
        #expect(availability.wroteSince(before))
        #expect(!availability.wroteSince(.now + .seconds(1)), "a write before the instant does not count")
        availability.failed(startedAt: .now, timeout, isWrite: true)
        #expect(!availability.wroteSince(before), "a failure after the write")
    }

    @Test func aConflictOrAnInvalidWriteSaysNothingAboutTheLog() {
        let availability = LogAvailability()
        availability.failed(startedAt: .now, NATSError(.wrongLastSequence, "changed"), isWrite: true)
        availability.failed(startedAt: .now, NATSError(.jetStreamAPI, "bad", apiErrorCode: 10060), isWrite: true)
        #expect(availability.isReachable)
        availability.failed(startedAt: .now, NATSError(.jetStreamAPI, "JetStream system temporarily unavailable", apiErrorCode: 10008), isWrite: true)
        #expect(!availability.isReachable)
    }

    /// A write sent during the outage that fails after a later one got through tells of the past.
    @Test func aFailureOfSomethingStartedBeforeTheLastSuccessIsIgnored() {
        let availability = LogAvailability()
        let early = ContinuousClock.now
        availability.succeeded(startedAt: .now)
        availability.failed(startedAt: early, timeout, isWrite: true)
        #expect(availability.isReachable)
    }

    /// A node cut from its peers may answer for the stream while it stores nothing: a probe sent
    /// before a write failed does not make the log reachable.
    @Test func aProbeOlderThanTheLastFailedWriteIsIgnored() {
        let availability = LogAvailability()
        let probeSent = ContinuousClock.now
        availability.failed(startedAt: .now, timeout, isWrite: true)
        availability.succeeded(startedAt: probeSent, isProbe: true)
        #expect(!availability.isReachable)
        availability.succeeded(startedAt: .now, isProbe: true)
        #expect(availability.isReachable)
    }

    /// Coming and going within the settle time is one outage: its writes refused add up.
    @Test func aFlappingLogIsOneOutage() {
        let availability = LogAvailability(settleTime: .seconds(60))
        availability.failed(startedAt: .now, timeout, isWrite: true)
        availability.succeeded(startedAt: .now)
        #expect(availability.isReachable)
        availability.failed(startedAt: .now, NATSError(.noResponders, "no leader"), isWrite: true)
        #expect(!availability.isReachable)
        #expect(availability.snapshot.refused == 2)
    }
}
