import Foundation
import MusterLog
import MusterNATS
import MusterRuntime

/// NATS endpoints every process with projections answers: `muster.projection.<name>.reload.<instance>`
/// makes the running projection load its snapshot file again (what `muster replay` asks after a rebuild).
enum ProjectionEndpoints {
    static func reloadSubject(name: String, instance: String) -> String { "muster.projection.\(name).reload.\(instance)" }

    static func make(environment: MusterEnvironment) -> [MicroEndpoint] {
        environment.projections.all.map { projection in
            MicroEndpoint(name: "reload-\(projection.projectionName)",
                          subject: reloadSubject(name: projection.projectionName, instance: environment.configuration.instance)) { _ in
                await projection.requestReload()
                return Data(#"{"reloading":true}"#.utf8)
            }
        }
    }
}
