import Foundation
package import Hummingbird
package import MusterLog
package import MusterPlatform
package import MusterRuntime

/// The operator console's notifications page (`/admin/notifications`): pushes asked for, delivered
/// and failed, the reasons providers gave, and the latest pushes. Served where the pushes fold
/// runs (the query role), with the console's own sign-in and session.
package enum PushConsole {
    /// How many of the latest pushes the page lists.
    static let latest = 50

    package static func add(to routes: Routes<Router<MusterRequestContext>>, pushes: ProjectionRunner<PushesProjection>, keys: APIKeyDirectory,
                           templates: PageTemplates) {
        let signIn = AdminConsole.signIn(keys: keys, templates: templates)
        routes.get("/admin/notifications", access: AdminConsole.access) { request, context in
            guard AdminConsole.operatorName(context) != nil else { return try await signIn.form(request, context) }
            let report = await pushes.read { state in Self.report(state) }
            return try await templates.report(report, group: AdminConsole.group, request: request, context: context)
        }
    }

    /// Whom a push was for, in a few words (no person's or device's id: counts only).
    static func audience(_ a: PushAudience) -> String {
        if a.everyone == true { return "every device" }
        var parts: [String] = []
        if let n = a.personIds?.count { parts.append("\(n) \(n == 1 ? "person" : "people")") }
        if let n = a.deviceIds?.count { parts.append("\(n) device\(n == 1 ? "" : "s")") }
        if let topics = a.topics { parts.append("topics " + topics.joined(separator: ", ")) }
        if let n = a.cells?.count { parts.append("\(n) cell\(n == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    static func report(_ state: PushesProjection.State) -> ReportView {
        let all = state.pushes.values
        let delivered = all.reduce(0) { $0 + $1.delivered }, failed = all.reduce(0) { $0 + $1.failed }
        var reasons: [String: Int] = [:]
        for push in all { reasons.merge(push.reasons, uniquingKeysWith: +) }
        let rows = all.sorted { ($0.sequence) > ($1.sequence) }.prefix(latest).map { push in
            [push.requestedAt, push.request.app, audience(push.request.audience), push.status, "\(push.targeted.map(String.init) ?? "?")",
             "\(push.delivered)", "\(push.failed)", push.reasons.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")]
        }
        return ReportView(title: "Notifications", subtitle: "pushes asked for, by every app, from the log", blocks: [
            .figures([
                .init("pushes asked for", "\(all.count)"), .init("still sending", "\(state.open.count)"),
                .init("delivered to devices", "\(delivered)"), .init("failed", "\(failed)", bad: failed > 0),
            ]),
            .heading("Why deliveries failed"),
            .table(.init(["Reason", "Devices"], reasons.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })),
            .heading("The latest \(latest)"),
            .table(.init(["Asked", "App", "Audience", "Status", "Devices", "Delivered", "Failed", "Reasons"], Array(rows))),
        ])
    }
}
