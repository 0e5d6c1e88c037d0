import MusterLog
package import MusterNATS
package import MusterRuntime

/// The object store buckets blobs live in (audio, images, later photos), opened once per process
/// with the log's replicas. Events carry a blob's digest, size and type, never its bytes.
package actor Blobs {
    package static let audio = "muster_audio"
    package static let images = "muster_images"
    /// The field app's photos and receipts.
    package static let field = "muster_field"

    let jetStream: JetStream
    let replicas: Int
    var opened: [String: ObjectStore] = [:]

    package init(jetStream: JetStream, replicas: Int) {
        self.jetStream = jetStream
        self.replicas = replicas
    }

    package func bucket(_ name: String) async throws -> ObjectStore {
        if let store = opened[name] { return store }
        let store = try await ObjectStore.open(jetStream, bucket: name, replicas: replicas)
        opened[name] = store
        return store
    }
}

extension Blobs {
    package static func shared(in environment: MusterEnvironment) -> Blobs {
        environment.shared { Blobs(jetStream: environment.log.jetStream, replicas: environment.configuration.streamReplicas) }
    }
}
