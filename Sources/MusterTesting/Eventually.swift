/// Polls until `condition` holds, failing after `timeout`. (For what a test cannot wait on
/// directly: another process, a server's state.) The default waits for readiness, not speed: when
/// the whole suite starts at once on two cores, a first answer took over 20 s (a test that must
/// fail sooner says so).
package func eventually(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(25))
    }
    throw TestServerError("timed out waiting for \(what)")
}
