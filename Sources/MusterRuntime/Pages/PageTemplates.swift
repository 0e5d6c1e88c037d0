import Foundation
package import Hummingbird
package import Mustache
import NIOPosix
import ServiceLifecycle

/// The pages' templates: every `.mustache` file below the templates folder, named by its path
/// without the extension (`admin/keys`), and the one stylesheet (`muster.css`) they link to.
/// Each page extends `shell` (the header, navigation, sign-out form and `main`), so every page
/// has the same structure, landmarks and Content-Security-Policy. Read once, off the cooperative
/// pool; a folder without `shell.mustache` stops the process at start (`PageTemplateLoader`).
package actor PageTemplates {
    package struct Loaded: Sendable {
        package let library: MustacheLibrary
        package let stylesheet: ByteBuffer

        package func contains(_ template: String) -> Bool { library.getTemplate(named: template) != nil }
    }

    package enum LoadError: Error, CustomStringConvertible {
        case missing(String)
        case template(String, String)

        package var description: String {
            switch self {
            case .missing(let what): "page templates: \(what) (MUSTER_TEMPLATES names the folder)"
            case .template(let name, let error): "page template \(name): \(error)"
            }
        }
    }

    let directory: String
    private var loaded: Loaded?

    package init(directory: String) {
        self.directory = directory
    }

    /// The process's templates, from `MUSTER_TEMPLATES`.
    package static func shared(in environment: MusterEnvironment) -> PageTemplates {
        environment.shared {
            let templates = PageTemplates(directory: environment.configuration[PageSettings.self].templatesPath)
            environment.runOnce(PageTemplateLoader(templates: templates))
            return templates
        }
    }

    /// The stylesheet every page links to, served by any process that serves pages.
    static func addStylesheet(to routes: Routes<Router<MusterRequestContext>>, templates: PageTemplates) {
        routes.get("/assets/muster.css", access: .anyone) { _, _ in
            let css = try await templates.load().stylesheet
            return Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600"],
                            body: .init(byteBuffer: css))
        }
    }

    /// The templates, read on first use.
    package func load() async throws -> Loaded {
        if let loaded { return loaded }
        let directory = directory
        let files = try await NIOThreadPool.singleton.runIfActive { try Self.read(directory) }
        var library = MustacheLibrary()
        for (name, text) in files.templates.sorted(by: { $0.key < $1.key }) {
            do { try library.register(text, named: name) } catch { throw LoadError.template(name, "\(error)") }
        }
        guard library.getTemplate(named: "shell") != nil else { throw LoadError.missing("no shell.mustache in \(directory)") }
        let made = Loaded(library: library, stylesheet: ByteBuffer(string: files.stylesheet))
        loaded = made
        return made
    }

    /// Blocking: the folder's templates and stylesheet.
    static func read(_ directory: String) throws -> (templates: [String: String], stylesheet: String) {
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        guard let stylesheet = try? String(contentsOf: root.appendingPathComponent("muster.css"), encoding: .utf8) else {
            throw LoadError.missing("no muster.css in \(directory)")
        }
        var templates: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".mustache") else { continue }
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            templates[String(path.dropLast(".mustache".count))] = text
        }
        return (templates, stylesheet)
    }

    /// `template` rendered with `view`, or the error that a missing template is (a programming
    /// error the tests catch: every page is rendered by one).
    package func render(_ view: any Sendable, template: String) async throws -> String {
        let library = try await load().library
        guard let html = library.render(view, withTemplate: template) else {
            throw APIError(.internalServerError, "no page template \(template)")
        }
        return html
    }
}

/// Reads the templates when the process starts, so a missing or broken folder stops it with the
/// reason instead of failing the first page someone opens.
final class PageTemplateLoader: Service {
    let templates: PageTemplates

    init(templates: PageTemplates) {
        self.templates = templates
    }

    func run() async throws {
        _ = try await templates.load()
        try? await gracefulShutdown()
    }
}
