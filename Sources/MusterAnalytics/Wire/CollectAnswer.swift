/// The answer to a batch: how many events were stored, how many were already there, and each
/// refused one by its index in the batch.
package struct CollectAnswer: Codable, Sendable, Equatable {
    package struct Rejected: Codable, Sendable, Equatable {
        package var index: Int
        package var id: String?
        package var reason: String
    }

    package var accepted: Int
    package var duplicates: Int
    package var rejected: [Rejected]
}
