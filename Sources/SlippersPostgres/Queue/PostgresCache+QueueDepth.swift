import Foundation
import PostgresNIO

/// How many lists a queue holds in each state, and how long its oldest due list has waited.
package struct QueueDepth: Hashable, Sendable {
    /// The number of lists in each state; a state no list is in is absent.
    package var lists: [QueuedList.State: Int]
    /// How long the oldest list that is due (pending and due, or running under a lease that ran
    /// out) has waited past its due time, in seconds: 0 when none is.
    package var lag: TimeInterval

    /// Creates a depth.
    package init(lists: [QueuedList.State: Int], lag: TimeInterval) {
        self.lists = lists
        self.lag = lag
    }
}

extension PostgresCache {
    /// The queue's depth by state and its lag, in one statement: what a worker records as gauges.
    ///
    /// - throws: ``PostgresCacheError`` when the database cannot be reached.
    package func queueDepth(now: Date = Date()) async throws -> QueueDepth {
        let stamp = now.timeIntervalSince1970
        return try await mappingErrors {
            let rows = try await client.rows(
                """
                SELECT state, count(*) AS lists, max(CASE
                    WHEN state = 'pending' AND COALESCE(due_at, enqueued_at) <= \(stamp)
                        THEN \(stamp) - COALESCE(due_at, enqueued_at)
                    WHEN state = 'running' AND lease_until < \(stamp) THEN \(stamp) - lease_until
                    ELSE 0 END) AS lag
                FROM queue GROUP BY state
                """)
            var depth = QueueDepth(lists: [:], lag: 0)
            for row in rows {
                guard let state = QueuedList.State(rawValue: try row["state"].decode(String.self)) else { continue }
                depth.lists[state] = try row["lists"].decode(Int.self)
                depth.lag = max(depth.lag, try row["lag"].decode(Double?.self) ?? 0)
            }
            return depth
        }
    }
}
