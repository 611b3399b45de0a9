import Synchronization

/// Whether a fleet worker is healthy: its loops run and its last look at the queue reached
/// PostgreSQL, and it is not stopping. What a supervisor's probe asks (see ``FleetStatusServer``).
public final class FleetHealth: Sendable {
    private struct State {
        var loops = 0
        var reachable = true
        var stopping = false
    }

    private let state = Mutex(State())

    /// Creates the health of a worker that has not started.
    public init() {}

    /// Whether the worker's loops run, the queue was reachable at its last look, and it is not stopping.
    public var isHealthy: Bool {
        state.withLock { $0.loops > 0 && $0.reachable && !$0.stopping }
    }

    /// Whether the worker was asked to stop (a graceful shutdown): it takes no list.
    var isStopping: Bool {
        state.withLock { $0.stopping }
    }

    func loopStarted() { state.withLock { $0.loops += 1 } }
    func loopEnded() { state.withLock { $0.loops -= 1 } }
    func reached(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    func stop() { state.withLock { $0.stopping = true } }
}
