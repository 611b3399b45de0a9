import Foundation
import PostgresNIO

extension PostgresCache {
    /// Takes one request of an origin's rate-limit budget, shared by every worker of the cache.
    ///
    /// One statement, one round trip, takes the request, so two workers never both take the last
    /// one of a window: a budget with requests left loses one; a budget whose reset is past is
    /// whole again (its limit, less this request) until an answer names the new window's reset.
    ///
    /// - parameter origin: The origin, as its requests name it (`https://api.example.com`).
    /// - parameter now: The worker's clock.
    /// - returns: ``RateBudgetReservation/noBudget`` when no worker recorded a budget for the origin,
    ///   ``RateBudgetReservation/granted`` when the request may go, and
    ///   ``RateBudgetReservation/spent(until:)`` when the budget is spent. A spent budget with no
    ///   reset known (every request of a new window taken before its first answer came) names a
    ///   quarter of a second from now, until ten seconds after its last change.
    /// - throws: A ``PostgresCacheError``.
    public func reserveRequest(origin: String, now: Date) async throws -> RateBudgetReservation {
        let now = now.timeIntervalSince1970
        return try await mappingErrors {
            try await client.withConnection { [logger] connection in
                // The outer query reads the budget as it stood before the update.
                guard
                    var row = try await PostgresRows.first(
                        """
                        WITH taken AS (
                            UPDATE rate_budgets SET
                                remaining = CASE WHEN reset_at <= \(now) THEN limit_count - 1 ELSE remaining - 1 END,
                                reset_at = CASE WHEN reset_at <= \(now) THEN NULL ELSE reset_at END,
                                updated_at = \(now)
                            WHERE origin = \(origin)
                                AND (reset_at <= \(now) AND limit_count > 0
                                    OR (reset_at IS NULL OR reset_at > \(now)) AND remaining > 0)
                            RETURNING remaining)
                        SELECT EXISTS (SELECT 1 FROM taken) AS taken, limit_count, remaining, reset_at, updated_at
                        FROM rate_budgets WHERE origin = \(origin)
                        """, on: connection, logger: logger)
                else { return .noBudget }
                if try row["taken"].decode(Bool.self) { return .granted }
                // The outer query read the budget as it stood when the statement began. One the
                // update would have taken as it stood lost its last request to another worker
                // meanwhile: read it again.
                let (limit, remaining, reset) = (
                    try row["limit_count"].decode(Int?.self), try row["remaining"].decode(Int?.self),
                    try row["reset_at"].decode(Double?.self)
                )
                let resetPast = reset.map { $0 <= now } ?? false
                if resetPast ? (limit ?? 0) > 0 : (remaining ?? 0) > 0 {
                    guard
                        let current = try await PostgresRows.first(
                            "SELECT remaining, reset_at, updated_at FROM rate_budgets WHERE origin = \(origin)",
                            on: connection, logger: logger)
                    else { return .noBudget }
                    row = current
                }
                guard let remaining = try row["remaining"].decode(Int?.self), remaining <= 0 else { return .granted }
                if let reset = try row["reset_at"].decode(Double?.self) {
                    return reset > now ? .spent(until: Date(timeIntervalSince1970: reset)) : .granted
                }
                let updated = try row["updated_at"].decode(Double.self)
                return now - updated < 10 ? .spent(until: Date(timeIntervalSince1970: now + 0.25)) : .granted
            }
        }
    }

    /// Records the rate-limit budget an answer from `origin` gave, for every worker of the cache.
    ///
    /// The newest reset wins. An answer within the window the cache knows (a reset less than a
    /// second from its) leaves the least of the two remaining counts, so the requests taken and
    /// not yet answered stay counted; an answer of a later window replaces the budget, one of an
    /// earlier window changes only the limit and window.
    ///
    /// - parameter origin: The origin, as its requests name it (`https://api.example.com`).
    /// - parameter limit: The requests the budget allows in a window, when the server said.
    /// - parameter remaining: The requests the server said were left, when it did.
    /// - parameter reset: When the budget is whole again, when the server said.
    /// - parameter window: The length of the budget's window in seconds, when the server said.
    /// - parameter now: The worker's clock.
    /// - throws: A ``PostgresCacheError``.
    package func recordRateBudget(
        origin: String, limit: Int?, remaining: Int?, reset: Date?, window: Double?, now: Date
    ) async throws {
        let (reset, now) = (reset?.timeIntervalSince1970, now.timeIntervalSince1970)
        try await mappingErrors {
            try await client.withConnection { [logger] connection in
                try await connection.query(
                    """
                    INSERT INTO rate_budgets AS b (origin, limit_count, remaining, reset_at, window_seconds, updated_at)
                    VALUES (\(origin), \(limit), \(remaining), \(reset), \(window), \(now))
                    ON CONFLICT (origin) DO UPDATE SET
                        limit_count = COALESCE(EXCLUDED.limit_count, b.limit_count),
                        window_seconds = COALESCE(EXCLUDED.window_seconds, b.window_seconds),
                        remaining = CASE
                            WHEN EXCLUDED.remaining IS NULL THEN b.remaining
                            WHEN EXCLUDED.reset_at IS NULL THEN EXCLUDED.remaining
                            WHEN b.reset_at IS NULL THEN LEAST(b.remaining, EXCLUDED.remaining)
                            WHEN EXCLUDED.reset_at >= b.reset_at + 1 THEN EXCLUDED.remaining
                            WHEN EXCLUDED.reset_at <= b.reset_at - 1 THEN b.remaining
                            ELSE LEAST(b.remaining, EXCLUDED.remaining)
                        END,
                        reset_at = CASE
                            WHEN EXCLUDED.remaining IS NOT NULL AND EXCLUDED.reset_at IS NULL THEN NULL
                            ELSE GREATEST(b.reset_at, EXCLUDED.reset_at)
                        END,
                        updated_at = EXCLUDED.updated_at
                    """, logger: logger)
            }
        }
    }
}
