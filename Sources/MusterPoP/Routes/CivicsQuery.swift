import Foundation
import Hummingbird
import MusterEvents

/// The filters the civics reads take (`org`, `deck`, `minDevices`, `limit`, `days`), checked
/// against the configuration: a deck or organisation the server does not have is a 422.
struct CivicsQuery: Sendable {
    var org: String?
    var deck: String
    var minDevices = 5
    var limit = 10
    var days = 30

    init(_ request: Request, config: PoPConfig) throws {
        let parameters = request.uri.queryParameters
        func text(_ name: String) -> String? { parameters[name[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 } }
        func number(_ name: String, _ range: ClosedRange<Int>, default value: Int) throws -> Int {
            guard let given = parameters[name[...]].map(String.init) else { return value } // present but empty is not a number
            guard let n = Int(given), range.contains(n) else {
                throw PoPError(.invalidField(name), "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        org = text("org")
        if let org, config.org(org) == nil { throw PoPError(.invalidField("org"), "org names no organisation this server has") }
        let decks = org.flatMap { config.org($0)?.decks } ?? config.orgs.first?.decks ?? []
        deck = text("deck") ?? decks.first ?? ""
        guard config.decks.decks[deck] != nil else { throw PoPError(.invalidField("deck"), "deck names no deck this server has") }
        minDevices = try number("minDevices", 1...1_000_000, default: 5)
        limit = try number("limit", 1...100, default: 10)
        days = try number("days", 1...CivicsProjection.maxDays, default: 30)
    }

    static func today(_ now: Date = Date()) -> Int { Int(Timestamp.millis(now) / 86_400_000) }
}
