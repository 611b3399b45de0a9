import CoreMetrics
import Foundation
import Slippers

/// The metrics the HTTP side records through swift-metrics, by origin (`scheme://host[:port]`):
/// never a path, a query or a header value. Nothing is kept unless the program bootstrapped a
/// backend.
enum RequestMetrics {
    /// Responses and transport failures: `slippers_requests_total{origin, status_class}`, the
    /// class `2xx` to `5xx`, or `error` when no response came.
    static let requests = "slippers_requests_total"
    /// Rate-limit refusals (`429`, or `403` with a spent budget): `slippers_requests_refused_total{origin, status}`.
    static let refused = "slippers_requests_refused_total"
    /// Requests sent again after a failure: `slippers_request_retries_total{origin}`.
    static let retries = "slippers_request_retries_total"
    /// Response bytes received, as decoded: `slippers_received_bytes_total{origin}`.
    static let receivedBytes = "slippers_received_bytes_total"
    /// The requests left in the origin's window, as its last answer said: `slippers_rate_budget_remaining{origin}`.
    static let budgetRemaining = "slippers_rate_budget_remaining"

    /// The counters, made once per name and labels by the backend.
    private static let counters = KeyedMemo<Counter>()
    /// The gauges, made once per name and labels by the backend.
    private static let gauges = KeyedMemo<Gauge>()

    /// Whether a backend was bootstrapped: without one, nothing is made or kept.
    private static var isRecording: Bool { !(MetricsSystem.factory is NOOPMetricsHandler) }

    /// The counter `label` with `dimensions`, made once by the backend.
    private static func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        let key = ([label] + dimensions.map { "\($0.0)=\($0.1)" }).joined(separator: "\u{1F}")
        return counters.value(for: key) { Counter(label: label, dimensions: dimensions) }
    }

    /// Records a response of `origin`: its status class, its bytes, and the budget its headers announce.
    static func recordResponse(_ response: NetworkResponse, origin: Origin, remaining: Int?) {
        guard isRecording else { return }
        let label = origin.description
        let statusClass = (100...599).contains(response.statusCode) ? "\(response.statusCode / 100)xx" : "other"
        counter(requests, [("origin", label), ("status_class", statusClass)]).increment()
        if !response.body.isEmpty {
            counter(receivedBytes, [("origin", label)]).increment(by: response.body.count)
        }
        if let remaining {
            gauges.value(for: label) { Gauge(label: budgetRemaining, dimensions: [("origin", label)]) }
                .record(remaining)
        }
    }

    /// Records a request of `origin` that got no response.
    static func recordFailure(origin: Origin) {
        guard isRecording else { return }
        counter(requests, [("origin", origin.description), ("status_class", "error")]).increment()
    }

    /// Records a rate-limit refusal.
    static func recordRefusal(origin: Origin, status: Int) {
        guard isRecording else { return }
        counter(refused, [("origin", origin.description), ("status", "\(status)")]).increment()
    }

    /// Records a request sent again, when its URL names an origin.
    static func recordRetry(url: URL?) {
        guard isRecording, let origin = url.flatMap(Origin.init) else { return }
        counter(retries, [("origin", origin.description)]).increment()
    }
}
