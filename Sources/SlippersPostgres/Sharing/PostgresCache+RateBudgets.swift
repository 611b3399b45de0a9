import Foundation
import PostgresNIO

extension PostgresCache {
    /// Takes one request of an origin's rate-limit budget, shared by every worker of the cache.
    ///
    /// One statement takes the request, so two workers never both take the last one of a window:
    /// a budget with requests left loses one; a budget whose reset is past is whole again (its
    /// limit, less this request) until an answer names the new window's reset.
    ///
    /// - parameter origin: The origin, as its requests name it (`https://api.example.com`).
    /// - parameter now: The worker's clock.
    /// - returns: `nil` when the request may go: one was taken, or no budget is known; otherwise
    ///   when the spent budget is whole again. A spent budget with no reset known (every request
    ///   of a new window taken before its first answer came) names a quarter of a second from
    ///   now, until ten seconds after its last change.
    /// - throws: A ``PostgresCacheError``.
    public func reserveRequest(origin: String, now: Date) async throws -> Date? {
        let now = now.timeIntervalSince1970
        return try await mappingErrors {
            try await client.withConnection { [logger] connection in
                let taken = try await PostgresRows.first(
                    """
                    UPDATE rate_budgets SET
                        remaining = CASE WHEN reset_at <= \(now) THEN limit_count - 1 ELSE remaining - 1 END,
                        reset_at = CASE WHEN reset_at <= \(now) THEN NULL ELSE reset_at END,
                        updated_at = \(now)
                    WHERE origin = \(origin)
                        AND (reset_at <= \(now) AND limit_count > 0
                            OR (reset_at IS NULL OR reset_at > \(now)) AND remaining > 0)
                    RETURNING remaining
                    """, on: connection, logger: logger)
                if taken != nil { return nil }
                guard
                    let row = try await PostgresRows.first(
                        "SELECT remaining, reset_at, updated_at FROM rate_budgets WHERE origin = \(origin)",
                        on: connection, logger: logger),
                    let remaining = try row["remaining"].decode(Int?.self), remaining <= 0
                else { return nil }
                if let reset = try row["reset_at"].decode(Double?.self) {
                    return reset > now ? Date(timeIntervalSince1970: reset) : nil
                }
                let updated = try row["updated_at"].decode(Double.self)
                return now - updated < 10 ? Date(timeIntervalSince1970: now + 0.25) : nil
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
    public func recordRateBudget(
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
