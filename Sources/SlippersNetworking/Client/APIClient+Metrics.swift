import CoreMetrics
import Foundation

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

    /// Records a response of `origin`: its status class, its bytes, and the budget its headers announce.
    static func recordResponse(_ response: NetworkResponse, origin: Origin, remaining: Int?) {
        let label = origin.description
        let statusClass = (100...599).contains(response.statusCode) ? "\(response.statusCode / 100)xx" : "other"
        Counter(label: requests, dimensions: [("origin", label), ("status_class", statusClass)]).increment()
        if !response.body.isEmpty {
            Counter(label: receivedBytes, dimensions: [("origin", label)]).increment(by: response.body.count)
        }
        if let remaining {
            Gauge(label: budgetRemaining, dimensions: [("origin", label)]).record(remaining)
        }
    }

    /// Records a request of `origin` that got no response.
    static func recordFailure(origin: Origin) {
        Counter(label: requests, dimensions: [("origin", origin.description), ("status_class", "error")]).increment()
    }

    /// Records a rate-limit refusal.
    static func recordRefusal(origin: Origin, status: Int) {
        Counter(label: refused, dimensions: [("origin", origin.description), ("status", "\(status)")]).increment()
    }

    /// Records a request sent again, when its URL names an origin.
    static func recordRetry(url: URL?) {
        guard let origin = url.flatMap(Origin.init) else { return }
        Counter(label: retries, dimensions: [("origin", origin.description)]).increment()
    }
}
