import CoreMetrics

/// The metrics a fleet worker records through swift-metrics; nothing is kept unless the program
/// bootstrapped a backend. No label holds a URL: a failure's reason is one of a few words.
enum FleetMetrics {
    /// Lists a worker took: `slippers_lists_started_total`.
    static func listStarted() { Counter(label: "slippers_lists_started_total").increment() }
    /// Lists synced to their end (or their run's end, for a scheduled list): `slippers_lists_completed_total`.
    static func listCompleted() { Counter(label: "slippers_lists_completed_total").increment() }
    /// Lists whose run did not complete, `slippers_lists_failed_total{reason}`: `sync` (the sync
    /// threw; the list ends failed), `database` (given back to the queue), `lease_lost` (another
    /// worker took it), `stopped` (the worker shut down and gave it back).
    static func listFailed(reason: String) {
        Counter(label: "slippers_lists_failed_total", dimensions: [("reason", reason)]).increment()
    }
    /// Leases renewed: `slippers_lease_renewals_total`.
    static func leaseRenewed() { Counter(label: "slippers_lease_renewals_total").increment() }
    /// Leases found taken by another worker at renewal: `slippers_leases_lost_total`.
    static func leaseLost() { Counter(label: "slippers_leases_lost_total").increment() }

    /// Records the queue's depth, `slippers_queue_lists{state}` for every state, and its lag,
    /// `slippers_queue_lag_seconds`.
    static func record(_ depth: QueueDepth) {
        for state in [QueuedList.State.pending, .running, .done, .failed] {
            Gauge(label: "slippers_queue_lists", dimensions: [("state", state.rawValue)]).record(
                depth.lists[state] ?? 0)
        }
        Gauge(label: "slippers_queue_lag_seconds").record(depth.lag)
    }
}
