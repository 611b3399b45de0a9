import Foundation
import Logging
import SlippersNetworking
import SlippersPostgres

/// Each origin's rate-limit budget kept in a PostgreSQL cache, shared by every worker on it.
///
/// A database that cannot be reached lets the request go, with a warning in the log: the
/// limiter's own pacing and the server's refusals still apply.
struct PostgresRateBudgets: RateBudgetStore {
    let cache: PostgresCache
    let logger: Logger

    func reserve(for origin: Origin, now: Date) async -> Date? {
        do {
            return try await cache.reserveRequest(origin: origin.description, now: now)
        } catch {
            logger.warning("shared rate budget unavailable", metadata: ["origin": "\(origin)", "error": "\(error)"])
            return nil
        }
    }

    func record(_ budget: RateLimiter.Budget, for origin: Origin, now: Date) async {
        do {
            try await cache.recordRateBudget(
                origin: origin.description, limit: budget.limit, remaining: budget.remaining, reset: budget.reset,
                window: budget.window?.timeInterval, now: now)
        } catch {
            logger.warning("shared rate budget unavailable", metadata: ["origin": "\(origin)", "error": "\(error)"])
        }
    }
}
