import Logging
import MusterLog
import MusterRuntime
import Testing

@Suite("Configuration from the environment")
struct ConfigurationTests {
    @Test func readsEveryVariable() throws {
        let config = try MusterConfiguration.fromEnvironment([
            "MUSTER_NATS_URL": "nats://n:4222", "MUSTER_HTTP_HOST": "0.0.0.0", "MUSTER_HTTP_PORT": "9090",
            "MUSTER_DATA_DIR": "/var/lib/muster", "MUSTER_LOG_LEVEL": "DEBUG", "MUSTER_LOG_FORMAT": "json",
            "MUSTER_INSTANCE": "query", "MUSTER_STREAM_REPLICAS": "3", "MUSTER_LOG_MAX_BYTES": "40GB",
        ])
        #expect(config.natsURL == "nats://n:4222" && config.httpHost == "0.0.0.0" && config.httpPort == 9090)
        #expect(config.dataDirectory == "/var/lib/muster" && config.logLevel == .debug && config.logFormat == .json)
        #expect(config.instance == "query" && config.streamReplicas == 3 && config.logConfiguration.replicas == 3)
        #expect(config.logConfiguration.maxBytes == Int64(42_949_672_960))
        #expect(try MusterConfiguration.fromEnvironment(["MUSTER_LOG_MAX_BYTES": "2000000"]).logMaxBytes == 2_000_000)
        #expect(try MusterConfiguration.fromEnvironment([:]).logConfiguration.maxBytes == nil)
        #expect(try MusterConfiguration.fromEnvironment(["MUSTER_LOG_MAX_BYTES": ""]).logMaxBytes == nil, "compose's empty default")
    }

    /// Replicas of a scaled container share their environment: `{hostname}` (the container's id) names each apart.
    @Test func anInstanceNamedByItsHost() throws {
        let config = try MusterConfiguration.fromEnvironment(["MUSTER_INSTANCE": "query-{hostname}"])
        #expect(config.instance.hasPrefix("query-") && config.instance.count > "query-".count && !config.instance.contains("{"))
        #expect(config.instance.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test(arguments: [("MUSTER_HTTP_PORT", "eighty"), ("MUSTER_HTTP_PORT", "70000"), ("MUSTER_LOG_LEVEL", "loud"),
                      ("MUSTER_LOG_FORMAT", "xml"), ("MUSTER_STREAM_REPLICAS", "2"), ("MUSTER_INSTANCE", "a.b"),
                      ("MUSTER_LOG_MAX_BYTES", "lots"), ("MUSTER_LOG_MAX_BYTES", "10KB"), ("MUSTER_LOG_MAX_BYTES", "99999999999TB")])
    func refusesNonsenseWithTheVariableNamed(name: String, value: String) {
        let error = #expect(throws: ConfigurationError.self) { _ = try MusterConfiguration.fromEnvironment([name: value]) }
        #expect(error?.description.contains(name) == true)
    }
}
