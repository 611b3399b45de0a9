import Foundation
import PostgresNIO
import Slippers

extension PostgresCache {
    /// Adds lists to the queue, or makes them pending again when they are there already.
    ///
    /// Each request is checked first (`SyncRequest.validate(queued: true)`): a request whose members
    /// contradict each other, or whose URL carries a credential, throws `SyncRequestError` and
    /// nothing is queued.
    ///
    /// A list is queued once per request: the same request enqueued again makes its list pending
    /// again and due now, its failures in a row forgotten, unless a worker holds it. A request
    /// with a ``SyncRequest/schedule`` comes due again after each run (see
    /// ``finish(_:worker:result:error:schedule:now:)``).
    ///
    /// For example:
    ///
    /// ```swift
    /// var request = SyncRequest(url: "https://api.example.com/posts")
    /// request.style.pageSize = 100
    /// let ids = try await cache.enqueue([request])
    /// ```
    ///
    /// - parameter requests: The lists and how to sync them (never headers: a credential is given
    ///   to each worker, not stored).
    /// - returns: The lists' numbers, in the order of `requests`.
    @discardableResult
    public func enqueue(_ requests: [SyncRequest], now: Date = Date()) async throws -> [Int64] {
        for request in requests { try request.validate(queued: true) }
        let stamp = now.timeIntervalSince1970
        let encoded = try requests.map { ($0.url, try $0.encoded()) }
        return try await mappingErrors {
            var ids: [Int64] = []
            for (url, request) in encoded {
                let rows = try await client.rows(
                    """
                    INSERT INTO queue (url, request, enqueued_at, updated_at)
                    VALUES (\(url), \(request), \(stamp), \(stamp))
                    ON CONFLICT (md5(request)) DO UPDATE SET
                        state = CASE WHEN queue.state = 'running' THEN queue.state ELSE 'pending' END,
                        due_at = CASE WHEN queue.state = 'running' THEN queue.due_at ELSE NULL END,
                        failures = CASE WHEN queue.state = 'running' THEN queue.failures ELSE 0 END,
                        updated_at = excluded.updated_at
                    RETURNING id
                    """)
                for row in rows { ids.append(try row["id"].decode(Int64.self)) }
            }
            return ids
        }
    }

    /// Takes the list due longest ago that no live worker holds: a pending one that is due (its
    /// `due_at` is not after `now`; an unscheduled list is due since it was enqueued), or a running
    /// one whose lease ran out.
    ///
    /// One statement, `FOR UPDATE SKIP LOCKED` as job queues on PostgreSQL do: workers claiming
    /// together never take the same list, and never wait for one another.
    ///
    /// - parameter worker: The worker's name (`host:pid`).
    /// - parameter lease: How long the list is the worker's unless it renews the lease.
    /// - returns: The list, or `nil` when none is free.
    public func claim(worker: String, lease: Duration, now: Date = Date()) async throws -> QueueClaim? {
        let stamp = now.timeIntervalSince1970
        let until = stamp + lease.timeInterval
        while true {
            let taken: (id: Int64, request: String, attempts: Int)? = try await mappingErrors {
                let rows = try await client.rows(
                    """
                    UPDATE queue SET state = 'running', worker = \(worker), lease_until = \(until),
                        attempts = attempts + 1, updated_at = \(stamp)
                    WHERE id = (
                        SELECT id FROM queue
                        WHERE (state = 'pending' AND (due_at IS NULL OR due_at <= \(stamp)))
                            OR (state = 'running' AND lease_until < \(stamp))
                        ORDER BY COALESCE(due_at, enqueued_at), id FOR UPDATE SKIP LOCKED LIMIT 1)
                    RETURNING id, request, attempts
                    """)
                for row in rows {
                    return (
                        id: try row["id"].decode(Int64.self), request: try row["request"].decode(String.self),
                        attempts: try row["attempts"].decode(Int.self)
                    )
                }
                return nil
            }
            guard let taken else { return nil }
            do {
                let request = try SyncRequest(encoded: taken.request)
                return QueueClaim(id: taken.id, request: request, isTakeover: taken.attempts > 1)
            } catch {
                // Written by another program: the list ends failed, and the next one is taken.
                try await finish(
                    taken.id, worker: worker, result: nil, error: "its request is not one this release reads: \(error)",
                    now: now)
            }
        }
    }

    /// Renews the worker's lease on a list; `false` when the list is no longer the worker's
    /// (its lease ran out and another worker took it).
    package func renewLease(of id: Int64, worker: String, lease: Duration, now: Date = Date()) async throws -> Bool {
        let until = now.timeIntervalSince1970 + lease.timeInterval
        return try await mappingErrors {
            let rows = try await client.rows(
                """
                UPDATE queue SET lease_until = \(until)
                WHERE id = \(id) AND worker = \(worker) AND state = 'running'
                RETURNING id
                """)
            var renewed = false
            renewed = !rows.isEmpty
            return renewed
        }
    }

    /// Records the list a list is filed under, once its worker has planned it.
    package func recordList(_ key: String, of id: Int64) async throws {
        try await mappingErrors {
            try await client.rows("UPDATE queue SET collection_key = \(key) WHERE id = \(id)")
        }
    }

    /// Ends the worker's hold on a list: `done` with its summary, or `failed` with its error; a
    /// scheduled list goes back to pending instead, due again later.
    ///
    /// With a `schedule`, a run that succeeded makes the list due at
    /// ``SyncRequest/Schedule/nextRun(after:spread:)`` (`every` from `now`, ±10 %), and one that
    /// failed makes it due after ``SyncRequest/Schedule/backoff(afterFailures:)`` (30 s, doubled
    /// with each failure in a row, at most `every` and 1 h), its error kept in `last_error`: a
    /// list whose server keeps failing waits longer and longer rather than spinning.
    ///
    /// - parameter schedule: The list's schedule; `nil` to end it done or failed.
    public func finish(
        _ id: Int64, worker: String, result: String?, error: String?, schedule: SyncRequest.Schedule? = nil,
        now: Date = Date()
    ) async throws {
        let stamp = now.timeIntervalSince1970
        guard let schedule else {
            let state = error == nil ? "done" : "failed"
            try await mappingErrors {
                try await client.rows(
                    """
                    UPDATE queue SET state = \(state), lease_until = NULL, last_result = \(result),
                        last_error = \(error), due_at = NULL,
                        failures = CASE WHEN \(error == nil) THEN 0 ELSE failures + 1 END, updated_at = \(stamp)
                    WHERE id = \(id) AND worker = \(worker)
                    """)
            }
            return
        }
        guard error != nil else {
            let due = schedule.nextRun(after: now).timeIntervalSince1970
            try await mappingErrors {
                try await client.rows(
                    """
                    UPDATE queue SET state = 'pending', lease_until = NULL, last_result = \(result),
                        last_error = NULL, due_at = \(due), failures = 0, updated_at = \(stamp)
                    WHERE id = \(id) AND worker = \(worker)
                    """)
            }
            return
        }
        // The backoff of the failure this makes: failures (before it) doublings of the first wait.
        let (every, first, longest) = (
            max(0, schedule.every), SyncRequest.Schedule.firstBackoff, SyncRequest.Schedule.longestBackoff
        )
        try await mappingErrors {
            try await client.rows(
                """
                UPDATE queue SET state = 'pending', lease_until = NULL, last_result = \(result),
                    last_error = \(error), failures = failures + 1,
                    due_at = \(stamp) + LEAST(\(every), \(longest), \(first) * power(2, LEAST(failures, 39))),
                    updated_at = \(stamp)
                WHERE id = \(id) AND worker = \(worker)
                """)
        }
    }

    /// Gives a list back to the queue, pending, when its worker cannot finish it for a reason of
    /// its own (the database was unreachable): another worker, or this one, takes it again and
    /// resumes its committed prefix.
    func requeue(_ id: Int64, worker: String, reason: String, now: Date = Date()) async throws {
        try await mappingErrors {
            try await client.rows(
                """
                UPDATE queue SET state = 'pending', lease_until = NULL, last_error = \(reason),
                    updated_at = \(now.timeIntervalSince1970)
                WHERE id = \(id) AND worker = \(worker) AND state = 'running'
                """)
        }
    }

    /// Whether any list is due at `now` or held by a worker: a scheduled list that comes due
    /// later does not count, so that a worker asked to stop once the queue is empty stops.
    package func hasListsDueOrRunning(now: Date = Date()) async throws -> Bool {
        let stamp = now.timeIntervalSince1970
        return try await mappingErrors {
            let rows = try await client.rows(
                """
                SELECT count(*) FROM queue
                WHERE state = 'running' OR (state = 'pending' AND (due_at IS NULL OR due_at <= \(stamp)))
                """)
            var count = 0
            for row in rows { count = try row["count"].decode(Int.self) }
            return count > 0
        }
    }

    /// The queue, oldest first, with each list's cached pages.
    public func queuedLists() async throws -> [QueuedList] {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                try await PostgresRows.all(
                    """
                    SELECT q.id, q.url, q.request, q.state, q.worker, q.lease_until, q.attempts, q.collection_key,
                        q.last_result, q.last_error, q.enqueued_at, q.due_at, q.failures,
                        (SELECT count(*) FROM pages p JOIN collections c ON c.id = p.collection_id
                            WHERE c.key = q.collection_key) AS pages
                    FROM queue q ORDER BY q.id
                    """, on: connection, logger: logger
                ).map { row in
                    let request = try row["request"].decode(String.self)
                    let url = try row["url"].decode(String.self)
                    let decoded = (try? SyncRequest(encoded: request)) ?? SyncRequest(url: url)
                    return QueuedList(
                        id: try row["id"].decode(Int64.self), url: url, request: decoded,
                        state: QueuedList.State(rawValue: try row["state"].decode(String.self)) ?? .pending,
                        worker: try row["worker"].decode(String?.self),
                        leaseUntil: try row["lease_until"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                        attempts: try row["attempts"].decode(Int.self),
                        listKey: try row["collection_key"].decode(String?.self),
                        pages: try row["pages"].decode(Int.self),
                        lastResult: try row["last_result"].decode(String?.self),
                        lastError: try row["last_error"].decode(String?.self),
                        enqueuedAt: Date(timeIntervalSince1970: try row["enqueued_at"].decode(Double.self)),
                        dueAt: try row["due_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                        every: decoded.schedule?.every, failures: try row["failures"].decode(Int.self))
                }
            }
        }
    }
}
