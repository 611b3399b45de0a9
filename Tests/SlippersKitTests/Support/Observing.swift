import Observation

/// Waits until `condition` holds, re-reading it each time an observed value it reads changes.
///
/// The condition is read inside `withObservationTracking`, so this is what a
/// SwiftUI view sees: it wakes on a change of what it reads, never on a timer.
@MainActor
func waitUntil(_ condition: @MainActor () -> Bool) async {
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = condition()
            } onChange: {
                continuation.resume()
            }
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
