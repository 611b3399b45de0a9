import CoreMetrics

extension OutboxPush.Report {
    /// The push's outcomes as swift-metrics counts, `slippers_outbox_writes_total{outcome}`
    /// (`acknowledged`, `failed`, `conflict`, `in_doubt`): nothing is kept unless the program
    /// bootstrapped a backend.
    func recordMetrics() {
        let outcomes = [
            ("acknowledged", acknowledged), ("failed", failed), ("conflict", conflicts), ("in_doubt", inDoubt),
        ]
        for (outcome, count) in outcomes where count > 0 {
            Counter(label: "slippers_outbox_writes_total", dimensions: [("outcome", outcome)]).increment(by: count)
        }
    }
}
