package import Foundation
import Glibc
import Synchronization

/// How a program ended.
package enum ProcessEnding: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(signal: Int32)

    package var description: String {
        switch self {
        case .exited(let status): "exited \(status)"
        case .killed(let signal): "killed by signal \(signal)"
        }
    }
}

extension Process {
    /// Every spawn of the tests, one at a time. Foundation closes, in each child, the descriptors
    /// open when it starts spawning; one opened by another thread meanwhile (another spawn's
    /// socket or pipe) leaks into the child and stays open as long as it runs. A leaked pipe never
    /// reaches its end, and Foundation learns of a program's exit from such a socket: a long-lived
    /// sibling holding it left `isRunning` true, and `waitUntilExit` blocked, until that sibling
    /// ended. (CI once hung that way: two test threads, both in `waitUntilExit`.)
    static let spawning = Mutex(())

    /// Runs the program, never while another test spawns one. `prepare` runs first, under the
    /// same lock: make a `Pipe` there, so that no spawn elsewhere inherits it.
    package func runAlone(_ prepare: (Process) throws -> Void = { _ in }) throws {
        try Self.spawning.withLock { _ in
            try prepare(self)
            try run()
        }
    }

    /// How the program ended; nil while it runs. Asked of the kernel (`waitid` with `WNOWAIT`,
    /// which leaves the child for Foundation to reap), so that it is known once the program has
    /// ended whatever holds Foundation's socket, and without holding a thread (`waitUntilExit`
    /// runs the calling thread's run loop until then: on a concurrency pool of two, a hang).
    package var ending: ProcessEnding? {
        var info = siginfo_t()
        if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            guard info._sifields._sigchld.si_pid == processIdentifier else { return nil } // still running
            let status = info._sifields._sigchld.si_status
            return info.si_code == CLD_EXITED ? .exited(status) : .killed(signal: status)
        }
        // Reaped already (ECHILD): Foundation's own record is whole once it says so.
        guard !isRunning else { return nil }
        return terminationReason == .exit ? .exited(terminationStatus) : .killed(signal: terminationStatus)
    }

    /// Waits for the program to end without holding a thread of the concurrency pool. Past `limit`
    /// it is killed (SIGKILL) and the wait throws: a stuck program fails its test instead of
    /// hanging the whole run.
    @discardableResult
    package func waitForExit(within limit: Duration, _ what: String) async throws -> ProcessEnding {
        if let ending = await ended(within: limit) { return ending }
        kill(processIdentifier, SIGKILL)
        _ = await ended(within: .seconds(30)) // SIGKILL is not refused; a process stuck in the kernel may take a moment
        throw TestServerError("\(what) did not end within \(limit); killed")
    }

    /// Sends SIGTERM (or `signal`) and waits, at most `limit`, for the program to end; then SIGKILL.
    package func stop(signal: Int32 = SIGTERM, within limit: Duration = .seconds(30), _ what: String) async throws {
        guard ending == nil else { return }
        kill(processIdentifier, signal)
        try await waitForExit(within: limit, what)
    }

    private func ended(within limit: Duration) async -> ProcessEnding? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let ending { return ending }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
