import Foundation

/// Settings one module reads from its own `MUSTER_*` variables, beside the process's
/// (`MusterConfiguration`): a module's texts, providers and limits are declared where the module
/// is, so adding an app touches no Runtime or Platform file. A module names its types in
/// `MusterApp.settings`; a process reads and checks every one at start and refuses to start on a
/// bad value, naming the variable.
package protocol AppSettings: Sendable {
    associatedtype Variable: RawRepresentable, CaseIterable where Variable.RawValue == String
    /// The defaults.
    init()
    /// Sets one variable from its text, or throws a `ConfigurationError` saying what it must be.
    mutating func set(_ variable: Variable, _ value: String) throws
}

extension AppSettings {
    /// The variables of `environment` this type reads, applied over `self`.
    package mutating func read(_ environment: [String: String]) throws {
        for variable in Variable.allCases {
            guard let value = environment[variable.rawValue] else { continue }
            do {
                try set(variable, value)
            } catch let error as ConfigurationError {
                throw ConfigurationError("\(variable.rawValue)=\(value): \(error.description)")
            }
        }
    }
}

/// The checks settings' values share, each saying what the value must be.
package enum SettingValue {
    /// An http(s) URL (https only when `secure`); empty means none when `optional`.
    package static func url(_ value: String, secure: Bool = false, optional: Bool = true) throws -> String? {
        if value.isEmpty, optional { return nil }
        guard value.hasPrefix("https://") || (!secure && value.hasPrefix("http://")) else {
            throw ConfigurationError(secure ? "must be an https URL" : "must be an http(s) URL")
        }
        return value
    }

    /// A comma-separated list of at least one item.
    package static func list(_ value: String, of what: String) throws -> [String] {
        let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw ConfigurationError("must name at least one \(what)") }
        return items
    }

    /// A whole number in `range`.
    package static func integer(_ value: String, _ range: ClosedRange<Int>, _ what: String) throws -> Int {
        guard let n = Int(value), range.contains(n) else { throw ConfigurationError("must be \(what)") }
        return n
    }
}
