package import MusterEvents
import MusterLog

/// ShieldAI's intake: voice enrollments and scanned documents. In memory (one entry each).
package enum ShieldAIProjection: Projection {
    package struct Enrollment: Codable, Sendable, Equatable {
        package var enrollment: VoiceEnrolled
        package var createdAt: String
    }

    package struct Document: Codable, Sendable, Equatable {
        package var scan: DocumentScanned
        package var createdAt: String
        /// Its place in the log: documents list in the order they were scanned.
        package var sequence: UInt64
    }

    package struct State: Codable, Sendable, Equatable {
        /// Live enrollments (an erased one is gone from here).
        package var enrollments: [String: Enrollment] = [:]
        /// Live documents (a deleted one is gone from here).
        package var documents: [String: Document] = [:]
    }

    package static let name = "shieldai"
    package static let version = 1
    package static let filterSubjects = ["events.shieldai.>"]
    package static let initialState = State()

    package static func apply(_ event: RecordedEvent, to state: inout State) throws {
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
