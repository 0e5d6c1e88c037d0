import MusterEvents
import MusterLog
import MusterPlatform

/// When a person is forgotten, what ShieldAI holds of them goes too: their voice recordings and
/// document images are erased from the object store and each document's text key is erased, so an
/// ID scan is no more readable than the person's name in the log. Run by an `EventProcessor`
/// (at least once): a second delivery finds nothing left to erase.
struct ShieldAIForgetting: Sendable {
    let voices: VoiceEnrollments
    let documents: DocumentScans

    static let filterSubjects = [PersonForgotten.eventType.familyFilter]

    func handle(_ event: RecordedEvent) async throws {
        guard let forgotten = event.payload as? PersonForgotten else { return }
        try await voices.erase(personId: forgotten.personId)
        try await documents.erase(personId: forgotten.personId)
    }
}
