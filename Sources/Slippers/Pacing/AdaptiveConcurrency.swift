import Synchronization

/// How many requests may be in flight at once, adapted to a server's answers: additive increase, multiplicative decrease.
///
/// A sync asks for a slot before each request and gives it back after.
/// Every ``limit`` requests that succeed raise the limit by one, up to
/// ``maximum``; a server that says it is overloaded (`429 Too Many Requests`,
/// `503 Service Unavailable`), reported with ``recordThrottle(retryAfter:now:)``,
/// halves it, down to one. The throttles of requests already in flight when
/// the limit was halved do not halve it again: a burst of refusals to one
/// round of requests counts once. A `Retry-After` pauses every new request
/// until it has passed.
///
/// The controller is shared: the sync that starts requests and the HTTP
/// client that sees the `429`s (through its retry callback) both hold it.
///
/// For example:
///
/// ```swift
/// let concurrency = AdaptiveConcurrency(maximum: 8)
/// concurrency.recordThrottle(retryAfter: .seconds(2))
/// concurrency.limit  // 4, and no new request for 2 s
/// ```
public final class AdaptiveConcurrency: Sendable {
    /// The highest limit: the concurrency the caller asked for.
    public let maximum: Int

    private let state: Mutex<State>

    /// What the controller has counted so far.
    public struct State: Hashable, Sendable {
        /// How many requests may be in flight now.
        package var limit: Int
        /// How many requests are in flight.
        package var inFlight = 0
        /// The most requests that were ever in flight at once.
        package var maxInFlight = 0
        /// The number of requests started.
        package var started = 0
        /// The number of throttles reported (`429`, `503`).
        package var throttles = 0
        /// The number of times the limit was halved.
        package var decreases = 0
        /// No request starts before this instant, when set: the latest `Retry-After`.
        var pausedUntil: ContinuousClock.Instant?
        /// Successes counted towards the next increase.
        var credit = 0
        /// Requests numbered below this one were in flight at the last decrease.
        var decreaseMark = 0
    }

    /// The number of the request the current task makes, so that a throttle can tell which round it belongs to.
    @TaskLocal static var currentRequest: Int?

    /// Creates a controller whose limit starts at `initial` (`maximum` when `nil`).
    ///
    /// - parameter maximum: The highest limit; at least 1.
    /// - parameter initial: The limit to start at, between 1 and `maximum`.
    public init(maximum: Int, initial: Int? = nil) {
        let maximum = max(1, maximum)
        self.maximum = maximum
        self.state = Mutex(State(limit: min(max(1, initial ?? maximum), maximum)))
    }

    /// What the controller has counted so far.
    package var snapshot: State { state.withLock { $0 } }

    /// How many requests may be in flight now.
    public var limit: Int { state.withLock { $0.limit } }

    /// How long new requests must wait for a `Retry-After` to pass; `nil` when they need not wait.
    public func pause(at now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { state in
            guard let until = state.pausedUntil, until > now else { return nil }
            return now.duration(to: until)
        }
    }

    /// Whether another request may start now: fewer than ``limit`` in flight and no pause.
    public func hasRoom(at now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            state.inFlight < state.limit && (state.pausedUntil.map { $0 <= now } ?? true)
        }
    }

    /// Counts a request that starts, and returns its number for ``run(request:_:)`` and ``finish(request:succeeded:)``.
    public func start() -> Int {
        state.withLock { state in
            let number = state.started
            state.started += 1
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return number
        }
    }

    /// Runs the request numbered `number`, so that the throttles reported while it runs are tied to it.
    public func run<T: Sendable>(
        request number: Int, _ operation: () async throws -> T
    ) async throws -> T {
        try await Self.$currentRequest.withValue(number) { try await operation() }
    }

    /// Counts a request that ended; a success adds to the next increase of the limit.
    public func finish(request number: Int, succeeded: Bool) {
        state.withLock { state in
            state.inFlight = max(0, state.inFlight - 1)
            guard succeeded, state.limit < maximum else { return }
            state.credit += 1
            if state.credit >= state.limit {
                state.credit = 0
                state.limit += 1
            }
        }
    }

    /// Records that the server asked to slow down: halves the limit (once per round of requests) and pauses new ones.
    ///
    /// Called from the task of the request that was refused, the throttles of
    /// requests started before the last decrease only extend the pause.
    ///
    /// - parameter retryAfter: The server's `Retry-After`, when it sent one: no request starts before it has passed.
    public func recordThrottle(retryAfter: Duration? = nil, now: ContinuousClock.Instant = .now) {
        let request = Self.currentRequest
        state.withLock { state in
            state.throttles += 1
            if let retryAfter, retryAfter > .zero {
                let until = now.advanced(by: retryAfter)
                state.pausedUntil = max(state.pausedUntil ?? until, until)
            }
            if let request, request < state.decreaseMark { return }
            state.limit = max(1, state.limit / 2)
            state.credit = 0
            state.decreases += 1
            state.decreaseMark = state.started
        }
    }
}
