import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Traces, configured the OpenTelemetry way: on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) names a collector, off otherwise or with
/// `OTEL_SDK_DISABLED=true` / `OTEL_TRACES_EXPORTER=none`. Spans go out over OTLP/HTTP (protobuf, or
/// `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`); sampling is `OTEL_TRACES_SAMPLER` and its `_ARG`
/// (default: parent-based, always on); the service is `OTEL_SERVICE_NAME`, by default `muster-<roles>`.
/// Muster's logs and metrics stay its own (stdout, Prometheus): only the tracer is OpenTelemetry's.
enum MusterTracing {
    /// Bootstraps the process's tracer and returns the service that exports its spans (run it
    /// first, so it stops last), or nil when tracing is off.
    static func bootstrap(roles: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                          logger: Logger) throws -> (any Service)? {
        let endpoint = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? ""
        guard !endpoint.isEmpty, environment["OTEL_SDK_DISABLED"]?.lowercased() != "true",
              environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none" else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "muster-" + roles.joined(separator: "-")
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(tracer)
        logger.notice("tracing", metadata: ["endpoint": "\(endpoint)", "service": "\(environment["OTEL_SERVICE_NAME"] ?? configuration.serviceName)"])
        return service
    }
}
