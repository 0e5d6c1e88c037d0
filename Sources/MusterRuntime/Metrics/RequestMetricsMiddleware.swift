package import Hummingbird
import Metrics
import MusterNATS

/// One request counter and one duration histogram for every routed request, labelled by method,
/// route pattern (`/api/moderation/actions/{id}/{decision}`, never the raw path) and status class,
/// so client errors (4xx) and server errors (5xx) are counted apart. It runs outermost, after the
/// error-body middleware has turned every error into its status.
package struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: start)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        // Unmatched paths share one label, so a scanner cannot grow the metric families.
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        let method = request.method.rawValue
        Counter(label: "muster_http_requests_total",
                dimensions: [("method", method), ("route", route), ("status", "\(status / 100)xx")]).increment()
        Timer(label: "muster_http_request_duration_seconds", dimensions: [("method", method), ("route", route)],
              preferredDisplayUnit: .seconds)
            .recordNanoseconds((ContinuousClock.now - start).nanoseconds)
    }
}
