import HTTPTypes
import MusterEvents
import MusterOPL
import MusterRuntime
import Testing

/// OPL's domain errors carry a code and a message; each code has one answer over HTTP.
@Suite("OPL errors and their HTTP answers")
struct OPLErrorMappingTests {
    @Test func eachCodeHasOneAnswer() {
        #expect(ModerationError(.notFound, "n").apiError.status == .notFound)
        #expect(ModerationError(.invalid, "i").apiError.status == .unprocessableContent)
        #expect(ModerationError(.wrongState, "w").apiError.status == .conflict)
        #expect(GeocodeError(.unavailable, "u").apiError.status == .serviceUnavailable)
    }
}
