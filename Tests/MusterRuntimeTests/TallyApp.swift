import Hummingbird
import HummingbirdWebSocket
import MusterEvents
import MusterLog
import MusterRuntime

/// The runtime's own test app, so its tests compose no real one: tallies that take additions,
/// a fold of their totals, a write route on ingest and a read route on query.
struct TallyAdded: EventPayload {
    static let eventType = EventType(app: "tally", aggregate: "tally", event: "added", major: 1)
    var tallyId: String
    var amount: Int
    var aggregateID: String { tallyId }

    func validate() throws {
        try Validate.length(tallyId, 1...40, field: "/tallyId")
        guard (1...1000).contains(amount) else { throw EventValidationError(field: "/amount", "must be 1 to 1000") }
    }
}

/// Totals by tally.
enum Totals: Projection {
    struct State: Codable, Sendable, Equatable { var totals: [String: Int] = [:] }
    static let name = "totals"
    static let version = 1
    static let filterSubjects = ["events.tally.>"]
    static let initialState = State()

    static func apply(_ event: RecordedEvent, to state: inout State) throws {
        if let added = event.payload as? TallyAdded { state.totals[added.tallyId, default: 0] += added.amount }
    }
}

struct TallyApp: MusterApp {
    struct Addition: Decodable { var amount: Int }
    struct Answer: Codable { var total: Int }

    let name = "tally"
    var kind: AppKind { .clientApp }
    var events: EventCatalog {
        var catalog = EventCatalog()
        catalog.register(TallyAdded.self)
        return catalog
    }
    var projections: [any Projection.Type] { [Totals.self] }
    var scopes: [String] { [] }

    func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let log = environment.log
            parts.appends([TallyAdded.self])
            parts.routes.append { routes in
                routes.post("/tally/{id}", access: .anyone) { request, context in
                    let addition = try await request.decode(as: Addition.self, context: context)
                    let id = try context.parameters.require("id")
                    let appended = try await log.append(TallyAdded(tallyId: id, amount: addition.amount))
                    return try JSONResponse.make(.created, ["sequence": appended.sequence])
                }
            }
        case .query:
            let totals = environment.projections.runner(Totals.self)
            parts.routes.append { routes in
                routes.get("/tally/{id}", access: .anyone) { _, context in
                    let id = try context.parameters.require("id")
                    return try JSONResponse.make(.ok, Answer(total: await totals.state.totals[id] ?? 0))
                }
            }
            // A WebSocket, so the query role's connections take the upgrade-capable pipeline (its
            // HTTP handlers come only after a first head): what `serve all` runs.
            parts.webSockets.append(WebSocketRoute(path: "/tally/echo", access: .anyone) { _, _ in
                .session { inbound, outbound, _ in
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        if case .text(let text) = message { try await outbound.write(.text(text)) }
                    }
                }
            })
        case .geocode, .moderation, .collector, .notifier:
            break
        }
    }
}

/// What these tests compose: the tally app alone.
let apps = MusterApps([TallyApp()])
