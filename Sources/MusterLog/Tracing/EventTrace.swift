package import Tracing

/// An event carries its trace across NATS in the envelope's `traceparent` (W3C trace context):
/// an append writes the current span's, a processor or fold that reads the event continues it in
/// a span of its own. With no tracer bootstrapped (tracing off: no `OTEL_EXPORTER_OTLP_*` endpoint)
/// nothing is written, and an event without a `traceparent` costs no span.
package enum EventTrace {
    /// The current span's context as a `traceparent` value, nil when there is none.
    package static func traceparent() -> String? {
        guard let context = InstrumentationContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"]
    }

    /// The context an event's `traceparent` names, nil when it names none.
    package static func context(_ traceparent: String?) -> InstrumentationContext? {
        guard let traceparent else { return nil }
        var context = InstrumentationContext.topLevel
        InstrumentationSystem.instrument.extract(["traceparent": traceparent], into: &context, using: DictionaryExtractor())
        return context
    }

    /// Runs `body` in a span continuing the event's trace; without a `traceparent`, just runs it.
    @inlinable
    package static func span<T>(_ name: @autoclosure () -> String, traceparent: String?, ofKind kind: SpanKind = .consumer,
                               _ body: () async throws -> T) async rethrows -> T {
        guard traceparent != nil else { return try await body() } // untraced: not even the name is made
        return try await traced(name(), traceparent: traceparent, ofKind: kind, body)
    }

    @usableFromInline
    static func traced<T>(_ name: String, traceparent: String?, ofKind kind: SpanKind, _ body: () async throws -> T) async rethrows -> T {
        guard let context = context(traceparent) else { return try await body() }
        return try await withSpan(name, context: context, ofKind: kind) { _ in try await body() }
    }

    /// The same for a synchronous step (a fold of one event).
    @inlinable
    package static func span<T>(_ name: @autoclosure () -> String, traceparent: String?, ofKind kind: SpanKind = .consumer,
                               _ body: () throws -> T) rethrows -> T {
        guard traceparent != nil else { return try body() }
        return try traced(name(), traceparent: traceparent, ofKind: kind, body)
    }

    @usableFromInline
    static func traced<T>(_ name: String, traceparent: String?, ofKind kind: SpanKind, _ body: () throws -> T) rethrows -> T {
        guard let context = context(traceparent) else { return try body() }
        return try withSpan(name, context: context, ofKind: kind) { _ in try body() }
    }

    /// A span continuing the event's trace that the caller ends (a fold committed later, in a batch).
    package static func start(_ name: @autoclosure () -> String, traceparent: String?, ofKind kind: SpanKind = .consumer) -> (any Span)? {
        guard traceparent != nil, let context = context(traceparent) else { return nil }
        return startSpan(name(), context: context, ofKind: kind)
    }
}

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}

struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}
