/// Where the pages' templates and stylesheet are (`MUSTER_TEMPLATES`, default `deploy/templates`;
/// the image keeps them in `/usr/share/muster/templates`).
package struct PageSettings: AppSettings, Equatable {
    package var templatesPath = "deploy/templates"

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case templatesPath = "MUSTER_TEMPLATES"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .templatesPath:
            guard !value.isEmpty else { throw ConfigurationError("must name a folder") }
            templatesPath = value
        }
    }
}
