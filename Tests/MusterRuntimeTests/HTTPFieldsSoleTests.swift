import HTTPTypes
import MusterRuntime
import Testing

@Suite("HTTPFields.sole")
struct HTTPFieldsSoleTests {
    @Test func givesTheValueOfTheOneFieldOnly() {
        #expect(HTTPFields().sole(.ifNoneMatch) == nil)
        #expect(([.ifNoneMatch: "\"a\""] as HTTPFields).sole(.ifNoneMatch) == "\"a\"")
        // Two: the fast path declines, and the route decides on the joined value.
        let two: HTTPFields = [.ifNoneMatch: "\"a\"", .ifNoneMatch: "\"b\""]
        #expect(two.sole(.ifNoneMatch) == nil)
        #expect(two[.ifNoneMatch] == "\"a\", \"b\"")
    }
}
