import CoreMetrics
import Slippers

/// The metrics a sync records through swift-metrics: nothing is kept unless the program
/// bootstrapped a backend (`MetricsSystem.bootstrap`), and then only counts, never a URL.
///
/// Names follow Prometheus' conventions: a counter ends in `_total`, a duration is in seconds.
enum SyncMetrics {
    /// Pages a sync saved: `slippers_pages_saved_total`.
    static let pagesSaved = "slippers_pages_saved_total"
    /// Items those pages brought that the list did not hold yet: `slippers_items_saved_total`.
    static let itemsSaved = "slippers_items_saved_total"
    /// A page's fetch, its retries included: `slippers_page_duration_seconds`.
    static let pageDuration = "slippers_page_duration_seconds"
    /// Pages fetched again under a run's retry budget: `slippers_page_retries_total`.
    static let pageRetries = "slippers_page_retries_total"

    /// The counters, made once each by the backend.
    private static let counters = KeyedMemo<Counter>()
    /// The timers, made once each by the backend.
    private static let timers = KeyedMemo<Timer>()

    /// Whether a backend was bootstrapped: without one, nothing is made or kept.
    static var isRecording: Bool { !(MetricsSystem.factory is NOOPMetricsHandler) }

    /// The counter `label`, made once by the backend.
    private static func counter(_ label: String) -> Counter {
        counters.value(for: label) { Counter(label: label) }
    }

    /// Records a saved page and the items it added.
    static func recordSaved(items: Int) {
        guard isRecording else { return }
        counter(pagesSaved).increment()
        if items > 0 { counter(itemsSaved).increment(by: items) }
    }

    /// Records a page's fetch: how long it took and how often it was fetched again.
    static func recordFetch(since started: ContinuousClock.Instant, retries: Int) {
        guard isRecording else { return }
        let elapsed = started.duration(to: .now)
        let (seconds, attoseconds) = elapsed.components
        timers.value(for: pageDuration) { Timer(label: pageDuration) }
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if retries > 0 { counter(pageRetries).increment(by: retries) }
    }
}
