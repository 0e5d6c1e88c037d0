import HTTPTypes
import MusterEvents
import MusterLog
import MusterRuntime
import Testing

/// Domain errors carry a code and a message; each has one answer over HTTP, and the log's
/// refusals have one mapping wherever a route meets them.
@Suite("Domain errors and their one HTTP mapping")
struct ErrorMappingTests {
    @Test func theLogsRefusalsMapTheSameEverywhere() {
        let invalid = AppendError(code: .invalid, message: "invalid", payloadError: EventValidationError(field: "/action/startDate", "must be a date"))
        #expect(invalid.apiError.status == .unprocessableContent && invalid.apiError.message == "action.startDate must be a date")
        #expect(AppendError(code: .tooLarge, message: "too large").apiError.status == .contentTooLarge)
        #expect(AppendError(code: .conflict, message: "moved").apiError.status == .conflict)
        let unavailable = AppendError(code: .unavailable, message: "no ack").apiError
        #expect(unavailable.status == .serviceUnavailable && unavailable.headers[.retryAfter] != nil)
    }
}
