/// The answer to a batch: how many events were stored, how many were already there, and each
/// refused one by its index in the batch.
public struct CollectAnswer: Codable, Sendable, Equatable {
    public struct Rejected: Codable, Sendable, Equatable {
        public var index: Int
        public var id: String?
        public var reason: String
    }

    public var accepted: Int
    public var duplicates: Int
    public var rejected: [Rejected]
}
