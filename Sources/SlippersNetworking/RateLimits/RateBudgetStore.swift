import Foundation

/// Where the rate limiters of several processes share each origin's budget, such as a database
/// that every worker of a fleet opens.
///
/// A ``RateLimiter`` with a store takes one request of the shared budget before each request it
/// lets go, and shares the budget every answer gives. A store that cannot be reached lets the
/// request go: the limiter's own pacing and the server's refusals still apply.
///
/// For example, a store in one process's memory:
///
/// ```swift
/// actor Budgets: RateBudgetStore {
///     var remaining: [Origin: (Int, Date)] = [:]
///     func reserve(for origin: Origin, now: Date) -> Date? {
///         guard let (left, reset) = remaining[origin], reset > now else { return nil }
///         if left > 0 { remaining[origin] = (left - 1, reset); return nil }
///         return reset
///     }
///     func record(_ budget: RateLimiter.Budget, for origin: Origin, now: Date) {
///         if let left = budget.remaining, let reset = budget.reset { remaining[origin] = (left, reset) }
///     }
/// }
/// ```
public protocol RateBudgetStore: Sendable {
    /// Takes one request of the origin's shared budget, as of `now`.
    ///
    /// - returns: `nil` when the request may go: one was taken, or no budget is known; otherwise
    ///   when the spent budget is whole again, the time to wait for before asking again.
    func reserve(for origin: Origin, now: Date) async -> Date?

    /// Shares the budget an answer from `origin` gave at `now`.
    func record(_ budget: RateLimiter.Budget, for origin: Origin, now: Date) async
}
