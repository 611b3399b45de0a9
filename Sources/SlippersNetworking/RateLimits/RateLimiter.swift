import Foundation
import Slippers
import Synchronization

/// Keeps the requests of a client within each origin's rate-limit budget: one pacer per client, shared by all its requests.
///
/// Every answer's budget (``RateLimitHeaders``) is recorded for its origin.
/// Before each request the limiter decides:
///
/// - While the budget is not known, or more than a tenth of it is left, the request goes at once.
/// - In the last tenth, requests are spaced evenly over the time left until the reset
///   (`time to reset / (remaining + 1)` apart), so the budget lasts until the reset.
/// - With nothing left, the request waits for the reset. Requests still in flight count
///   against what is left until their answers come, so concurrent requests never overrun it.
/// - After a refusal (``APIClient`` blocks the origin for the server's wait), every request
///   to the origin waits until that time.
///
/// A wait longer than ``maxWait`` is not waited: the request fails with
/// ``NetworkError/Kind/rateLimited(wait:)``. Cancelling the task ends any wait at once.
///
/// With a ``store``, the limiters of several processes share each origin's budget: before a
/// request goes, the limiter takes one request of the shared budget, and waits for the reset the
/// store names when it is spent; every answer's budget is shared with the store.
///
/// For example, a client that waits at most ten minutes for a budget:
///
/// ```swift
/// var options = APIClient.Options()
/// options.rateLimiter = RateLimiter(maxWait: .seconds(600))
/// ```
public final class RateLimiter: Sendable {
    /// The longest wait for a budget; a longer one fails the request.
    public let maxWait: Duration
    /// Where the limiters of other processes share each origin's budget with this one, if anywhere.
    let store: (any RateBudgetStore)?

    /// The budget of one origin as last seen.
    public struct Budget: Sendable, Equatable {
        /// The requests the budget allows in a window, when the server said.
        public var limit: Int?
        /// The requests the server said were left, when it did.
        public var remaining: Int?
        /// When the budget is whole again, when the server said.
        public var reset: Date?
        /// The length of the budget's window, when the server said.
        public var window: Duration?

        /// Creates a budget from what a server said of it.
        public init(limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil, window: Duration? = nil) {
            self.limit = limit
            self.remaining = remaining
            self.reset = reset
            self.window = window
        }
    }

    /// A wait for a spent budget: until when, and how long from now.
    struct Wait: Sendable {
        var until: Date
        var delay: Duration
    }

    private struct OriginState {
        var limit: Int?
        var remaining: Int?
        var resetAt: ContinuousClock.Instant?
        var window: Duration?
        var blockedUntil: ContinuousClock.Instant?
        var inFlight = 0
        var lastStart: ContinuousClock.Instant?
        var announcedUntil: ContinuousClock.Instant?
    }

    private struct State {
        var origins: [Origin: OriginState] = [:]
        var generation = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0

        mutating func changed() {
            generation += 1
            for waiter in waiters.values { waiter.resume() }
            waiters = [:]
        }
    }

    private enum Decision {
        case go
        case sleep(until: ContinuousClock.Instant, announcing: Wait?)
        case awaitAnswer(generation: Int)
        case fail(Duration)
    }

    // The origins' budgets, requests in flight, and the tasks waiting for an answer.
    private let state = Mutex(State())

    /// Time added to a reset before the next request, so that it arrives after the server's window turned.
    static let margin = Duration.milliseconds(50)

    /// Creates a limiter that waits at most `maxWait` (an hour unless given) for a budget, and
    /// shares each origin's budget through `store` when one is given.
    public init(maxWait: Duration = .seconds(3600), store: (any RateBudgetStore)? = nil) {
        self.maxWait = maxWait
        self.store = store
    }

    /// The budget last seen for an origin, or `nil` when no answer of it carried one.
    package func budget(for origin: Origin) -> Budget? {
        state.withLock { state in
            guard let origin = state.origins[origin], origin.limit != nil || origin.remaining != nil else { return nil }
            let now = ContinuousClock.now
            return Budget(
                limit: origin.limit, remaining: origin.remaining,
                reset: origin.resetAt.map { Date().addingTimeInterval(now.duration(to: $0).timeInterval) },
                window: origin.window)
        }
    }

    // MARK: - Requests

    /// Waits until a request to `origin` may go, and counts it in flight.
    ///
    /// - parameter waitedUntil: A time the caller has already slept to; deadlines up to it count as past.
    /// - parameter sleep: How to wait a duration.
    /// - parameter announce: Called once per wait for a spent budget that no other request announced.
    /// - throws: ``NetworkError`` when the wait would be longer than ``maxWait``; `CancellationError`.
    func acquire(
        _ origin: Origin, url: URL?, method: String?, waitedUntil: ContinuousClock.Instant? = nil,
        sleep: @Sendable (Duration) async throws -> Void, announce: (Wait) -> Void
    ) async throws {
        var waited = waitedUntil
        while true {
            try Task.checkCancellation()
            let clock = ContinuousClock.now
            let now = waited.map { max($0, clock) } ?? clock
            switch state.withLock({ decide(origin, now: now, state: &$0) }) {
            case .go:
                guard let store, let reset = await store.reserve(for: origin, now: Date()) else { return }
                // The shared budget is spent: the request is not in flight while it waits for the reset.
                release(origin)
                let start = ContinuousClock.now
                let until = start + .seconds(max(0, reset.timeIntervalSinceNow)) + Self.margin
                let delay = start.duration(to: until)
                if delay > maxWait { throw NetworkError(.rateLimited(wait: delay), url: url, method: method) }
                if let wait = state.withLock({ state in
                    var budget = state.origins[origin] ?? OriginState()
                    defer { state.origins[origin] = budget }
                    return Self.announcement(until: until, now: start, budget: &budget)
                }) {
                    announce(wait)
                }
                try await sleep(delay)
                waited = max(waited ?? until, until)
            case .sleep(let until, let wait):
                if let wait { announce(wait) }
                try await sleep(clock.duration(to: until))
                waited = max(waited ?? until, until)
            case .awaitAnswer(let generation):
                await waitForChange(after: generation)
            case .fail(let wait):
                throw NetworkError(.rateLimited(wait: wait), url: url, method: method)
            }
        }
    }

    /// Records the answer to a request sent after ``acquire(_:url:method:waitedUntil:sleep:announce:)``.
    func record(_ origin: Origin, _ headers: RateLimitHeaders) {
        state.withLock { state in
            let now = ContinuousClock.now
            var budget = state.origins[origin] ?? OriginState()
            budget.inFlight = max(0, budget.inFlight - 1)
            if let limit = headers.limit { budget.limit = limit }
            if let window = headers.window { budget.window = window }
            if let remaining = headers.remaining {
                if let resetIn = headers.resetIn {
                    let reset = now + resetIn
                    // A reset already past belongs to a window that is over.
                    if reset > now {
                        // Within a window, resets given in whole seconds differ by less than one;
                        // a reset a second or more later is the next window's.
                        if let current = budget.resetAt, current > now, budget.remaining != nil,
                            reset < current + .seconds(1)
                        {
                            budget.remaining = min(budget.remaining ?? remaining, remaining)
                            budget.resetAt = max(current, reset)
                        } else {
                            budget.remaining = remaining
                            budget.resetAt = reset
                        }
                    }
                } else {
                    budget.remaining = remaining
                    budget.resetAt = nil
                }
            }
            state.origins[origin] = budget
            state.changed()
        }
    }

    /// Shares the budget an answer gave with the ``store``, when there is one and the answer gave one.
    func share(_ origin: Origin, _ headers: RateLimitHeaders) async {
        guard let store, headers.limit != nil || headers.remaining != nil else { return }
        let now = Date()
        let budget = Budget(
            limit: headers.limit, remaining: headers.remaining,
            reset: headers.resetIn.map { now.addingTimeInterval($0.timeInterval) }, window: headers.window)
        await store.record(budget, for: origin, now: now)
    }

    /// Counts a request that got no answer out of flight.
    func release(_ origin: Origin) {
        state.withLock { state in
            if var budget = state.origins[origin] {
                budget.inFlight = max(0, budget.inFlight - 1)
                state.origins[origin] = budget
            }
            state.changed()
        }
    }

    /// Holds every request to `origin` for `wait` after a refusal.
    ///
    /// - returns: The time the hold ends, and the wait to announce when no request announced one ending then.
    func block(_ origin: Origin, for wait: Duration, spent: Bool) -> (ContinuousClock.Instant, Wait?) {
        state.withLock { state in
            let now = ContinuousClock.now
            let until = now + wait
            var budget = state.origins[origin] ?? OriginState()
            budget.blockedUntil = max(budget.blockedUntil ?? until, until)
            if spent { budget.remaining = 0 }
            let announcement = Self.announcement(until: until, now: now, budget: &budget)
            state.origins[origin] = budget
            state.changed()
            return (until, announcement)
        }
    }

    // MARK: - Deciding

    private func decide(_ origin: Origin, now: ContinuousClock.Instant, state: inout State) -> Decision {
        var budget = state.origins[origin] ?? OriginState()
        defer { state.origins[origin] = budget }
        if let until = budget.blockedUntil {
            if until > now {
                return .sleep(until: until, announcing: Self.announcement(until: until, now: now, budget: &budget))
            }
            budget.blockedUntil = nil
        }
        if let reset = budget.resetAt, reset <= now {
            // The window turned: the budget is whole again until an answer says otherwise.
            budget.resetAt = nil
            budget.remaining = nil
        }
        guard let known = budget.remaining ?? budget.limit else { return go(&budget, now: now) }
        let left = known - budget.inFlight
        if left <= 0 {
            if budget.inFlight > 0 { return .awaitAnswer(generation: state.generation) }
            if budget.resetAt == nil, budget.remaining != nil, let window = budget.window {
                budget.resetAt = now + window
            }
            guard let reset = budget.resetAt else { return go(&budget, now: now) }
            let until = reset + Self.margin
            let wait = now.duration(to: until)
            if wait > maxWait { return .fail(wait) }
            return .sleep(until: until, announcing: Self.announcement(until: until, now: now, budget: &budget))
        }
        if let reset = budget.resetAt, let last = budget.lastStart, left <= max(1, (budget.limit ?? 0) / 10) {
            let next = last + now.duration(to: reset) / (left + 1)
            if next > now { return .sleep(until: next, announcing: nil) }
        }
        return go(&budget, now: now)
    }

    private func go(_ budget: inout OriginState, now: ContinuousClock.Instant) -> Decision {
        budget.inFlight += 1
        budget.lastStart = now
        return .go
    }

    /// The wait to announce for a hold ending at `until`, unless a wait ending within a second of
    /// it, still under way or over for less than a second, was announced.
    private static func announcement(
        until: ContinuousClock.Instant, now: ContinuousClock.Instant, budget: inout OriginState
    ) -> Wait? {
        // The wait announced last, still running or over for less than a second, is this one when
        // this one ends within a second of it: the same reset, seen again after the clocks drifted
        // between a refusal's headers and their record (a scheduling delay on a loaded machine).
        if let announced = budget.announcedUntil, announced + .seconds(1) > now, until <= announced + .seconds(1) {
            return nil
        }
        budget.announcedUntil = until
        let delay = now.duration(to: until)
        return Wait(
            until: Date().addingTimeInterval(ContinuousClock.now.duration(to: until).timeInterval), delay: delay)
    }

    /// Returns once an answer is recorded after `generation`, or at once when one already was.
    private func waitForChange(after generation: Int) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    if state.generation != generation || Task.isCancelled {
                        continuation.resume()
                    } else {
                        state.waiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in state.waiters.removeValue(forKey: id)?.resume() }
        }
    }
}
