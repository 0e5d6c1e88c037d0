import HTTPTypes
import MusterRuntime
import Testing

/// What the fast path's listener reads from a socket read itself, and what it leaves to the
/// HTTP decoder: anything but one plain GET head, whole and alone.
@Suite("Plain GET heads")
struct PlainGetHeadTests {
    static func head(_ text: String) -> PlainGetHead? {
        Array(text.utf8).withUnsafeBytes { PlainGetHead($0) }
    }

    static let poll = "GET /api/mobile/data?lat=44.08&lng=-103.23&hash=ab HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-API-Key:  opl_1 \r\nIf-None-Match: \"ab\"\r\n\r\n"

    @Test func aPollReadsAsTheDecoderWouldGiveIt() throws {
        let head = try #require(Self.head(Self.poll))
        #expect(head.target == "/api/mobile/data?lat=44.08&lng=-103.23&hash=ab")
        #expect(head.host == "127.0.0.1:8080")
        #expect(head.fields[HTTPField.Name("x-api-key")!] == "opl_1") // whitespace around a value is not part of it
        #expect(head.fields[.ifNoneMatch] == "\"ab\"")
        #expect(head.fields.count == 2) // Host is the authority, as HTTPTypes keeps it
        let request = head.request
        #expect(request.method == .get && request.path == head.target && request.authority == "127.0.0.1:8080")
        #expect(Self.head("GET / HTTP/1.1\r\n\r\n")?.target == "/")
        #expect(Self.head("GET / HTTP/1.1\r\nX-Empty:\r\n\r\n")?.fields[HTTPField.Name("x-empty")!] == "")
    }

    @Test(arguments: [
        ("another method", "HEAD / HTTP/1.1\r\n\r\n"),
        ("HTTP/1.0", "GET / HTTP/1.0\r\n\r\n"),
        ("absolute form", "GET http://x/ HTTP/1.1\r\n\r\n"),
        ("asterisk form", "GET * HTTP/1.1\r\n\r\n"),
        ("two spaces", "GET  / HTTP/1.1\r\n\r\n"),
        ("bare LF", "GET / HTTP/1.1\nHost: x\n\n"),
        ("bare LF in a field", "GET / HTTP/1.1\r\nHost: x\n\r\n"),
        ("half a head", "GET / HTTP/1.1\r\nHost: x\r\n"),
        ("two requests", "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n"),
        ("bytes after the head", "GET / HTTP/1.1\r\n\r\nx"),
        ("a body's length", "GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"),
        ("chunked", "GET / HTTP/1.1\r\ntransfer-ENCODING: chunked\r\n\r\n"),
        ("connection", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"),
        ("upgrade", "GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n"),
        ("expect", "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n"),
        ("two hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        ("folded line", "GET / HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n"),
        ("space before colon", "GET / HTTP/1.1\r\nX-A : a\r\n\r\n"),
        ("empty name", "GET / HTTP/1.1\r\n: a\r\n\r\n"),
        ("no colon", "GET / HTTP/1.1\r\nX-A\r\n\r\n"),
        ("control byte in a value", "GET / HTTP/1.1\r\nX-A: a\u{1}b\r\n\r\n"),
        ("non-ASCII in a value", "GET / HTTP/1.1\r\nX-A: é\r\n\r\n"),
        ("non-ASCII in the target", "GET /é HTTP/1.1\r\n\r\n"),
        ("NUL in the target", "GET /\u{0} HTTP/1.1\r\n\r\n"),
    ])
    func anythingElseGoesToTheDecoder(_ why: String, _ text: String) {
        #expect(Self.head(text) == nil, "\(why)")
    }

    @Test func sizeAndFieldCountAreBounded() {
        let long = "GET /" + String(repeating: "a", count: PlainGetHead.maxBytes) + " HTTP/1.1\r\n\r\n"
        #expect(Self.head(long) == nil)
        let many = "GET / HTTP/1.1\r\n" + (0..<65).map { "X-\($0): v\r\n" }.joined() + "\r\n"
        #expect(Self.head(many) == nil)
        #expect(Self.head("") == nil && Self.head("GET") == nil)
    }
}
