import Foundation
import PostgresNIO
import Synchronization

extension PostgresCache {
    /// Runs `body` while this process holds the list's lease: one worker walks a list at a time.
    ///
    /// The lease is a PostgreSQL session advisory lock on the list's key, held on a connection of
    /// its own for as long as `body` runs. Another worker asking for it waits (after `onWait`
    /// is called once), then runs `body` on the list as the first one left it: finished, or with
    /// its committed prefix to resume from. A worker that dies, even by `SIGKILL`, loses its
    /// connection and with it the lease, at once.
    ///
    /// - parameter key: The list's key.
    /// - parameter onWait: Called when another worker holds the lease, before waiting for it.
    /// - parameter whileWaiting: Runs while this worker waits for the lease, such as fetching the
    ///   list's pages ahead of the worker holding it (see ``fetchPagesAhead(of:source:concurrency:until:)``);
    ///   its argument says whether the lease is now this worker's, and `body` runs once it has returned.
    /// - throws: What `body` throws, or a ``PostgresCacheError``.
    public func withListLease<Result: Sendable>(
        _ key: String, onWait: @Sendable () -> Void = {},
        whileWaiting: @escaping @Sendable (_ leaseTaken: @escaping @Sendable () -> Bool) async -> Void = { _ in },
        _ body: () async throws -> Result
    ) async throws -> Result {
        let lockName = "slippers:list:" + key
        let connection = try await mappingErrors { try await client.dedicated() }
        do {
            let taken = try await mappingErrors {
                let rows = try await PostgresRows.all(
                    "SELECT pg_try_advisory_lock(hashtextextended(\(lockName), 0)) AS taken", on: connection,
                    logger: logger)
                return try rows.first?["taken"].decode(Bool.self) ?? false
            }
            if !taken {
                onWait()
                let leaseTaken = LeaseTaken()
                try await withThrowingTaskGroup(of: Void.self) { [logger] group in
                    group.addTask {
                        try await self.mappingErrors {
                            try await connection.query(
                                "SELECT pg_advisory_lock(hashtextextended(\(lockName), 0))", logger: logger)
                        }
                        leaseTaken.set()
                    }
                    group.addTask { await whileWaiting { leaseTaken.isSet } }
                    try await group.waitForAll()
                }
            }
            // The lease's own session claims the pages the walk fetches (see SharedPageSource).
            leaseConnections.withLock { $0[key] = connection }
            defer { _ = leaseConnections.withLock { $0.removeValue(forKey: key) } }
            let result = try await body()
            try? await connection.close()
            return result
        } catch {
            // Closing the session releases its lock.
            try? await connection.close()
            throw error
        }
    }
}

/// Whether a worker waiting for a lease has it now.
private final class LeaseTaken: Sendable {
    private let taken = Mutex(false)

    func set() { taken.withLock { $0 = true } }

    var isSet: Bool { taken.withLock { $0 } }
}
