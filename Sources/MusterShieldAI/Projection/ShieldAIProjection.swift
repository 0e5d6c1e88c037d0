public import MusterEvents
public import MusterLog

/// ShieldAI's intake: voice enrollments by owner. In memory (one entry per enrollment).
public enum ShieldAIProjection: Projection {
    public struct Enrollment: Codable, Sendable, Equatable {
        public var enrollment: VoiceEnrolled
        public var createdAt: String
    }

    public struct State: Codable, Sendable, Equatable {
        public var enrollments: [String: Enrollment] = [:]
    }

    public static let name = "shieldai"
    public static let version = 1
    public static let filterSubjects = ["events.shieldai.>"]
    public static let initialState = State()

    public static func apply(_ event: RecordedEvent, to state: inout State) throws {
        switch event.payload {
        case let enrolled as VoiceEnrolled:
            state.enrollments[enrolled.enrollmentId] = Enrollment(enrollment: enrolled, createdAt: event.time)
        default:
            return
        }
    }
}
