import Foundation
import Logging
import SlippersNetworking
import SlippersPostgres
import Synchronization

/// Each origin's rate-limit budget kept in a PostgreSQL cache, shared by every worker on it.
///
/// An origin no worker has recorded a budget for is asked about again once a second, not before
/// every request, until an answer from it gives a budget. A database that cannot be reached lets
/// the request go, with a warning in the log: the limiter's own pacing and the server's refusals
/// still apply.
final class PostgresRateBudgets: RateBudgetStore {
    let cache: PostgresCache
    let logger: Logger
    /// How long an origin with no budget in the database goes without asking it again.
    static let noBudgetRecheck: TimeInterval = 1
    /// Until when each origin with no budget in the database is not asked about again.
    private let noBudgetUntil = Mutex<[Origin: Date]>([:])

    init(cache: PostgresCache, logger: Logger) {
        self.cache = cache
        self.logger = logger
    }

    func reserve(for origin: Origin, now: Date) async -> Date? {
        if let until = noBudgetUntil.withLock({ $0[origin] }), now < until { return nil }
        do {
            let reservation = try await cache.reserveRequest(origin: origin.description, now: now)
            if reservation == .noBudget {
                noBudgetUntil.withLock { $0[origin] = now.addingTimeInterval(Self.noBudgetRecheck) }
            }
            return reservation.waitUntil
        } catch {
            logger.warning("shared rate budget unavailable", metadata: ["origin": "\(origin)", "error": "\(error)"])
            return nil
        }
    }

    func record(_ budget: RateLimiter.Budget, for origin: Origin, now: Date) async {
        _ = noBudgetUntil.withLock { $0.removeValue(forKey: origin) }
        do {
            try await cache.recordRateBudget(
                origin: origin.description, limit: budget.limit, remaining: budget.remaining, reset: budget.reset,
                window: budget.window?.timeInterval, now: now)
        } catch {
            logger.warning("shared rate budget unavailable", metadata: ["origin": "\(origin)", "error": "\(error)"])
        }
    }
}
