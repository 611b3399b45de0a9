import Observation
import Synchronization
import Testing

/// Waits until `condition` holds, re-reading it each time an observed value it reads changes.
///
/// The condition is read inside `withObservationTracking`, so this is what a
/// SwiftUI view sees: it wakes on a change of what it reads. A condition that
/// still does not hold after `timeout` is recorded as an issue at the caller and
/// the wait ends, so a list that never gets there fails its test instead of
/// holding the run.
@MainActor
func waitUntil(
    timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
) async {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        let wake = Wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            wake.set(continuation)
            withObservationTracking {
                _ = condition()
            } onChange: {
                wake.resume()
            }
            // A change nothing observes (or one made before the tracking began) is read again soon.
            Task {
                try? await Task.sleep(for: .milliseconds(100))
                wake.resume()
            }
        }
    }
}

/// A continuation resumed once, by whichever of its wakers comes first.
private final class Wake: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume() {
        continuation.withLock { stored in
            stored?.resume()
            stored = nil
        }
    }
}

/// Whether reading `read` registers an observation that a change then fires: the value is observable.
@MainActor
final class ChangeCounter {
    private(set) var count = 0

    /// Observes what `read` reads; every change counts once and observes again.
    func observe(_ read: @escaping @MainActor () -> Void) {
        withObservationTracking {
            read()
        } onChange: {
            Task { @MainActor in
                self.count += 1
                self.observe(read)
            }
        }
    }
}
