/// The roles a person can hold in one app, declared by that app's module as an enum; the only place
/// a role's name is written. Tokens carry the raw value; routes and domain rules compare cases.
package protocol AppRole: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The app whose roles these are (`MusterApp.name`).
    static var app: String { get }
    /// Whether holding `self` counts as holding `required` (OFFLEASH: an owner is an admin too).
    func satisfies(_ required: Self) -> Bool
}

extension AppRole {
    package func satisfies(_ required: Self) -> Bool { self == required }

    /// Every role's name, for the app's `MusterApp.roles`.
    package static var names: [String] { allCases.map(\.rawValue) }

    /// Every role that satisfies one of `required`: what a route declared for `required` admits.
    package static func admitted(by required: [Self]) -> Set<String> {
        Set(allCases.filter { role in required.contains { role.satisfies($0) } }.map(\.rawValue))
    }
}
