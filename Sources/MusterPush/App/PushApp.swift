import AsyncHTTPClient
import Foundation
import Logging
package import MusterEvents
package import MusterLog
import MusterPlatform
package import MusterRuntime

/// Pushes for every app: requests (`POST /api/push`, ingest), delivery through APNs with an
/// outcome per device (notifier), and how a push went (`GET /api/push/{id}`, query).
package struct PushApp: MusterApp {
    package let name = "push"
    package var kind: AppKind { .sharedService }
    package var events: EventCatalog { .push }
    package var projections: [any Projection.Type] { [PushesProjection.self] }
    package var scopes: [String] { [] }
    /// Every app sends to its own devices with its own key.
    package var sharedScopes: [String] { [PushRoutes.scope] }
    package var settings: [any AppSettings.Type] { [APNsSettings.self, FCMSettings.self] }

    package init() {}

    package func add(to parts: inout RoleParts, role: ServiceRole, environment: MusterEnvironment) {
        switch role {
        case .ingest:
            let pushes = Pushes(log: environment.log, devices: environment.projections.runner(DevicesProjection.self))
            parts.appends([PushRequested.self])
            parts.routes.append { PushRoutes.addSend(to: $0, pushes: pushes) }
        case .notifier:
            parts.appends([PushDispatched.self, PushDelivered.self, PushFailed.self, PushCompleted.self, DeviceInvalidated.self])
            let (apns, apnsHTTP) = Self.apnsClient(environment)
            let (fcm, fcmHTTP) = Self.fcmClient(environment)
            parts.services.append(PushDispatcher(pushes: environment.projections.runner(PushesProjection.self),
                                                 devices: environment.projections.runner(DevicesProjection.self),
                                                 log: environment.log, apns: apns, fcm: fcm, http: [apnsHTTP, fcmHTTP].compactMap { $0 },
                                                 logger: environment.logger))
        case .query:
            let pushes = environment.projections.runner(PushesProjection.self)
            let reports = PushReports(pushes: pushes)
            let (keys, templates) = (APIKeyDirectory.shared(in: environment), PageTemplates.shared(in: environment))
            parts.routes.append { routes in
                PushRoutes.addStatus(to: routes, reports: reports)
                PushConsole.add(to: routes, pushes: pushes, keys: keys, templates: templates)
            }
        case .geocode, .moderation, .collector:
            break
        }
    }

    /// The FCM client the configuration describes, or none (every Android copy then fails with `NoProvider`).
    static func fcmClient(_ environment: MusterEnvironment) -> (FCMClient?, HTTPClient?) {
        let settings = environment.configuration[FCMSettings.self]
        guard let file = settings.serviceAccountFile else {
            environment.logger.notice("FCM is not configured (MUSTER_FCM_SERVICE_ACCOUNT): Android pushes are recorded as failed")
            return (nil, nil)
        }
        do {
            let account = try FCMServiceAccount(contentsOf: file)
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init())
            return (FCMClient(http: http, account: account, baseURL: settings.url), http)
        } catch {
            environment.logger.error("the FCM service account could not be read; Android pushes are recorded as failed",
                                     metadata: ["file": "\(file)", "error": "\(error)"])
            return (nil, nil)
        }
    }

    /// The APNs client the configuration describes, or none (every iOS copy then fails with
    /// `NoProvider`, which `GET /api/push/{id}` shows).
    static func apnsClient(_ environment: MusterEnvironment) -> (APNsClient?, HTTPClient?) {
        let settings = environment.configuration[APNsSettings.self]
        guard settings.isConfigured, let file = settings.keyFile, let keyID = settings.keyID, let teamID = settings.teamID else {
            environment.logger.notice("APNs is not configured (MUSTER_APNS_KEY_FILE, _KEY_ID, _TEAM_ID): iOS pushes are recorded as failed")
            return (nil, nil)
        }
        do {
            let signer = try APNsSigningKey(contentsOf: file, keyID: keyID, teamID: teamID)
            let lease = APNsTokenLease(signer: signer, jetStream: environment.log.jetStream, replicas: environment.configuration.streamReplicas)
            let http = APNsClient.makeHTTPClient(caFile: settings.caFile)
            return (APNsClient(http: http, lease: lease, sandboxURL: settings.sandboxURL, productionURL: settings.productionURL), http)
        } catch {
            environment.logger.error("the APNs key could not be read; iOS pushes are recorded as failed",
                                     metadata: ["file": "\(file)", "error": "\(error)"])
            return (nil, nil)
        }
    }
}
