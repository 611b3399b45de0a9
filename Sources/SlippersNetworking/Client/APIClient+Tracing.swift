import Foundation
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The span of each request a client sends, through swift-distributed-tracing: `HTTP GET` (the
/// method), a client span, a child of the current span (a sync's page, when a sync sends it).
///
/// Its attributes are the origin (`slippers.origin`: `scheme://host[:port]`), the method, the
/// status and the bytes received: never a URL's path or query, a header's value or a credential.
/// A status of 400 or more, and a request that got no answer, leave an error span. The tracer
/// injects the span's context into the request's headers (W3C `traceparent`, with swift-otel), so a
/// server that traces too continues the trace.
package enum RequestTracing {
    /// Sends `request` through `send` in a request span of `tracer`.
    package static func request(
        _ tracer: some Tracer, _ request: URLRequest, origin: Origin?,
        _ send: (URLRequest) async throws -> NetworkResponse
    ) async throws -> NetworkResponse {
        let method = request.httpMethod?.uppercased() ?? "GET"
        return try await tracer.withSpan("HTTP \(method)", ofKind: .client) { span in
            var traced = request
            if span.isRecording {
                span.attributes["http.request.method"] = method
                if let origin { span.attributes["slippers.origin"] = origin.description }
            }
            tracer.inject(span.context, into: &traced, using: HeaderInjector())
            let response = try await send(traced)
            if span.isRecording {
                span.attributes["http.response.status_code"] = response.statusCode
                span.attributes["slippers.bytes"] = response.body.count
                if response.statusCode >= 400 {
                    span.setStatus(SpanStatus(code: .error, message: "HTTP \(response.statusCode)"))
                }
            }
            return response
        }
    }

    /// Sets the headers a tracer propagates a trace with.
    private struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
            request.setValue(value, forHTTPHeaderField: key)
        }
    }
}
