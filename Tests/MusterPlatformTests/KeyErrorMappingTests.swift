import HTTPTypes
import MusterEvents
import MusterPlatform
import MusterRuntime
import Testing

/// Key errors carry a code and a message; each code has one answer over HTTP.
@Suite("Key errors and their HTTP answers")
struct KeyErrorMappingTests {
    @Test func eachCodeHasOneAnswer() {
        #expect(KeyError(.missing, "m").apiError.status == .unauthorized)
        #expect(KeyError(.refused, "r").apiError.status == .unauthorized)
        #expect(KeyError(.lacksScope, "s").apiError.status == .forbidden)
        #expect(KeyError(.loading, "l").apiError.status == .serviceUnavailable)
    }
}
