import GRDB
import MusterEvents
import MusterLog

extension ProjectionRunner {
    /// Reads the fold's tables, or says (503) to try again while they are still opening.
    func tables<T: Sendable>(_ what: String, _ body: @escaping @Sendable (GRDB.Database) throws -> T) async throws -> T {
        guard let value = try await readTables(body) else { throw PoPError(.notReady, "\(what) is still opening; try again in a moment") }
        return value
    }
}
