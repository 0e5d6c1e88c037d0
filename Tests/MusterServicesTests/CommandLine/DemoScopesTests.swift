import Foundation
import MusterAppTesting
import MusterRuntime
import MusterServices
import MusterTesting
import Testing

/// The demo and bench scripts issue keys with `muster keys issue --app A --scopes X,Y`; each
/// scope must be one the app may carry (`MusterApps.keyScopes`), or the command refuses it and
/// the demo breaks (as it did, three times, before `make test` ran it).
@Suite("Scopes the scripts use")
struct DemoScopesTests {
    /// Every (app, scopes) the scripts name, in shell (`--app a --scopes x,y`) or Python
    /// (`"--app", "a", "--scopes", "x,y"`) form; a scope that is a variable is skipped.
    static func issued() throws -> [(file: String, app: String, scopes: [String])] {
        let shell = try NSRegularExpression(pattern: #"--app[ "',]+([a-z]+)["',]* +["',]*--scopes[ "',]+([a-z:,-]+)"#)
        var found: [(String, String, [String])] = []
        for folder in ["scripts", "bench"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Repository.path(folder))
            for name in names.sorted() where name.hasSuffix(".sh") || name.hasSuffix(".py") {
                let text = try String(contentsOfFile: Repository.path("\(folder)/\(name)"), encoding: .utf8)
                for match in shell.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let app = Range(match.range(at: 1), in: text), let scopes = Range(match.range(at: 2), in: text) else { continue }
                    let list = text[scopes].split(separator: ",").map(String.init)
                    guard list.allSatisfy({ $0.contains(":") }) else { continue } // a variable, not a list
                    found.append(("\(folder)/\(name)", String(text[app]), list))
                }
            }
        }
        return found
    }

    @Test func everyScopeTheScriptsIssueIsDeclaredByItsApp() throws {
        let issued = try Self.issued()
        #expect(issued.count >= 15, "the scripts' keys were found: \(issued.count)")
        #expect(issued.contains { $0.file == "scripts/demo.sh" && $0.app == "platform" && $0.scopes == ["admin:platform"] })
        let allowed = MusterProcess.apps.keyScopes
        for (file, app, scopes) in issued {
            for scope in scopes {
                #expect(allowed.allowed(forKeyOf: app).contains(scope), "\(file): a \(app) key with \(scope)")
            }
        }
    }
}
