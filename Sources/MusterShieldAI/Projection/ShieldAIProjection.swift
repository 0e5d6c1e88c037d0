public import MusterEvents
public import MusterLog

/// ShieldAI's intake: voice enrollments and scanned documents. In memory (one entry each).
public enum ShieldAIProjection: Projection {
    public struct Enrollment: Codable, Sendable, Equatable {
        public var enrollment: VoiceEnrolled
        public var createdAt: String
    }

    public struct Document: Codable, Sendable, Equatable {
        public var scan: DocumentScanned
        public var createdAt: String
        /// Its place in the log: documents list in the order they were scanned.
        public var sequence: UInt64
    }

    public struct State: Codable, Sendable, Equatable {
        /// Live enrollments (an erased one is gone from here).
        public var enrollments: [String: Enrollment] = [:]
        /// Live documents (a deleted one is gone from here).
        public var documents: [String: Document] = [:]
    }

    public static let name = "shieldai"
    public static let version = 1
    public static let filterSubjects = ["events.shieldai.>"]
    public static let initialState = State()

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let enrolled as VoiceEnrolled:
            state.enrollments[enrolled.enrollmentId] = Enrollment(enrollment: enrolled, createdAt: event.time)
        case let scanned as DocumentScanned:
            state.documents[scanned.documentId] = Document(scan: scanned, createdAt: event.time, sequence: event.sequence)
        case let deleted as DocumentDeleted:
            state.documents[deleted.documentId] = nil
        case let erased as VoiceErased:
            state.enrollments[erased.enrollmentId] = nil
        default:
            return
        }
    }
}
