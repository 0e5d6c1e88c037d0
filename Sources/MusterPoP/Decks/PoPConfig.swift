import Foundation
import MusterJSON

/// PoP's configuration, the server side of the app's `AppConfig`: the organisations that run
/// the app, the state each is in and the decks it studies (`orgs.json`), and the decks themselves
/// (`decks/*.json`), all in one folder (`MUSTER_POP_CONFIG`, default `deploy/pop`). A second state
/// or organisation is a new entry and a new deck file, not code.
package struct PoPConfig: Sendable {
    package struct Org: Codable, Sendable, Equatable {
        /// What installs send (`pop-sd`); also the slug of the people organisation its organisers sign in to.
        package var slug: String
        package var name: String
        package var tagline: String?
        package var contactEmail: String?
        /// Two-letter state code (`SD`) and its name.
        package var state: String
        package var stateName: String
        /// The decks its installs study.
        package var decks: [String]
        /// What the app's `AppConfig` shows beside them (`GET /api/pop/config`): the organisation's
        /// site, the state's capital, legislature and Secretary of State, a county and a city, colours (`#RRGGBB`).
        package var website: String?
        package var capital: String?
        package var legislatureURL: String?
        package var sosURL: String?
        package var countyName: String?
        package var municipalName: String?
        package var primaryColor: String?
        package var accentColor: String?

        package init(slug: String, name: String, state: String, stateName: String, decks: [String]) {
            self.slug = slug
            self.name = name
            self.state = state
            self.stateName = stateName
            self.decks = decks
        }
    }

    struct OrgsFile: Codable { var orgs: [Org] }

    /// In the file's order; the first is where installs that name none belong.
    package let orgs: [Org]
    package let decks: Decks

    package init(orgs: [Org], decks: Decks) {
        self.orgs = orgs
        self.decks = decks
    }

    /// Reads `folder/orgs.json` and `folder/decks/`.
    package init(folder: String) throws {
        let base = URL(fileURLWithPath: folder)
        let bytes = try Data(contentsOf: base.appendingPathComponent("orgs.json"))
        let file = try JSONBytesDecoder().decode(OrgsFile.self, from: Array(bytes))
        let decks = try Decks(folder: base.appendingPathComponent("decks").path)
        for org in file.orgs {
            for deck in org.decks where decks.decks[deck] == nil {
                throw ConfigError("organisation \(org.slug) studies deck \(deck), which \(folder)/decks does not have")
            }
        }
        self.init(orgs: file.orgs, decks: decks)
    }

    /// The organisation an install names, or the first one when it names none; nil when unknown.
    package func org(_ slug: String?) -> Org? {
        guard let slug else { return orgs.first }
        return orgs.first { $0.slug == slug }
    }

    package struct ConfigError: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
