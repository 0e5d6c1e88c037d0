import AsyncHTTPClient
import Foundation
import Glibc
import MusterTesting
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import Synchronization

/// A real headless Chromium, driven through Debian's `chromedriver` (W3C WebDriver over HTTP on
/// a free port): what the consoles' tests click and type with. Each page it is asked to keep is
/// saved as a PNG under `.build/test-output/screenshots/<name>/`, so a failed run can be looked at.
package struct Browser: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// An element of the current page, by WebDriver's reference.
    package struct Element: Sendable {
        let id: String
    }

    let driver: String
    let session: String
    let http: HTTPClient
    let screenshots: URL
    let shots = Counter()

    /// Numbers the screenshots in the order they were taken.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
    }

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let chromedriver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether this machine has both (make test installs `chromium` and `chromium-driver`).
    package static var available: Bool { chromium != nil && chromedriver != nil }

    /// Starts chromedriver and a headless Chromium with a profile of its own, runs `body`, and
    /// ends both whatever `body` does.
    package static func with(_ name: String, _ body: (Browser) async throws -> Void) async throws {
        guard let chromium, let chromedriver else { throw Failure(description: "no chromium and chromedriver (apt-get install chromium chromium-driver)") }
        let port = try freePort()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("muster-browser-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromedriver)
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        defer { try? FileManager.default.removeItem(at: profile) }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let driver = "http://127.0.0.1:\(port)"
            try await eventually("chromedriver answers", timeout: .seconds(20)) {
                (try? await Self.call(http, .GET, "\(driver)/status"))?["ready"] as? Bool == true
            }
            let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                "goog:chromeOptions": ["binary": chromium, "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                    "--window-size=1280,1000", "--user-data-dir=\(profile.path)",
                ]],
            ]]]
            let created = try await Self.call(http, .POST, "\(driver)/session", capabilities)
            guard let session = created["sessionId"] as? String else { throw Failure(description: "no session: \(created)") }
            let folder = URL(fileURLWithPath: Repository.path(".build/test-output/screenshots/\(name)"))
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let browser = Browser(driver: driver, session: session, http: http, screenshots: folder)
            do {
                try await body(browser)
            } catch {
                try? await browser.keep("failed")
                _ = try? await Self.call(http, .DELETE, "\(driver)/session/\(session)")
                throw error
            }
            _ = try? await Self.call(http, .DELETE, "\(driver)/session/\(session)")
        } catch {
            try? await http.shutdown()
            try? await process.stop(within: .seconds(10), "chromedriver")
            throw error
        }
        try? await http.shutdown()
        try? await process.stop(within: .seconds(10), "chromedriver")
    }

    // MARK: What a person does

    /// Opens `url` and waits for it to load.
    package func open(_ url: String) async throws {
        _ = try await command(.POST, "url", ["url": url])
    }

    /// The first element `css` matches, waiting up to `timeout` for one to appear.
    package func find(_ css: String, timeout: Duration = .seconds(10)) async throws -> Element {
        var found: Element?
        try await eventually("an element matching \(css)", timeout: timeout) {
            guard let value = try? await command(.POST, "element", ["using": "css selector", "value": css]) as? [String: Any],
                  let id = value.values.first as? String else { return false }
            found = Element(id: id)
            return true
        }
        guard let found else { throw Failure(description: "no \(css)") }
        return found
    }

    /// Types `text` into the field `css` names (clicking it first, as a person would).
    package func type(_ text: String, into css: String) async throws {
        let field = try await find(css)
        _ = try await command(.POST, "element/\(field.id)/click", [:])
        _ = try await command(.POST, "element/\(field.id)/value", ["text": text])
    }

    /// Clicks the element `css` names.
    package func click(_ css: String) async throws {
        let element = try await find(css)
        _ = try await command(.POST, "element/\(element.id)/click", [:])
    }

    /// The visible text of the element `css` names (`body`: the whole page's).
    package func text(_ css: String = "body") async throws -> String {
        let element = try await find(css)
        return try await command(.GET, "element/\(element.id)/text") as? String ?? ""
    }

    /// Waits until the page shows `text` (a click that submits a form returns before the answer
    /// is drawn); throws after `timeout`.
    package func waitFor(text: String, timeout: Duration = .seconds(10)) async throws {
        try await eventually("the page to show \(text)", timeout: timeout) { (try? await self.text())?.contains(text) == true }
    }

    /// The page's address now.
    package func url() async throws -> String {
        try await command(.GET, "url") as? String ?? ""
    }

    /// The form fields of the page a screen reader could not name: no `<label>`, no `aria-label`,
    /// no `aria-labelledby` (hidden fields and buttons aside). Empty on an accessible page.
    package func unlabelledFields() async throws -> [String] {
        let script = """
            return Array.from(document.querySelectorAll('input, select, textarea'))
              .filter(e => !['hidden', 'submit', 'button', 'reset', 'image'].includes((e.type || '').toLowerCase()))
              .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
              .map(e => e.outerHTML.slice(0, 120));
            """
        return try await command(.POST, "execute/sync", ["script": script, "args": [Any]()]) as? [String] ?? []
    }

    /// Saves a screenshot of the page as `<n>-<name>.png`.
    package func keep(_ name: String) async throws {
        guard let png = try await command(.GET, "screenshot") as? String, let data = Data(base64Encoded: png) else {
            throw Failure(description: "no screenshot")
        }
        let file = screenshots.appendingPathComponent(String(format: "%02d-%@.png", shots.next(), name))
        try data.write(to: file)
    }

    // MARK: WebDriver

    func command(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        try await Self.call(http, method, "\(driver)/session/\(session)/\(path)", body)["value"] ?? nil
    }

    /// One WebDriver call; its answer's `value` (the whole answer for `/status`-like calls
    /// without one is under "value" too). An answer with an `error` throws it.
    @discardableResult
    static func call(_ http: HTTPClient, _ method: HTTPMethod, _ url: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        let answer = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "\(method) \(url): \(error): \((value["message"] as? String ?? "").prefix(300))")
        }
        // `/status` and `/session` put what they say under "value"; callers read it there or in the whole.
        if url.hasSuffix("/status") || url.hasSuffix("/session"), let value = answer["value"] as? [String: Any] { return value }
        return answer
    }
}
