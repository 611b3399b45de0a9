import Foundation
import PostgresNIO
import SlippersStore

extension PostgresCache {
    /// Runs `body` while this process holds the list's lease: one worker walks a list at a time.
    ///
    /// The lease is a PostgreSQL session advisory lock on the list's key, held on a connection of
    /// its own for as long as `body` runs. Another worker asking for it waits (after `onWait`
    /// is called once), then runs `body` on the list as the first one left it: finished, or with
    /// its committed prefix to resume from. A worker that dies, even by `SIGKILL`, loses its
    /// connection and with it the lease, at once.
    ///
    /// - parameter key: The list's collection key.
    /// - parameter onWait: Called when another worker holds the lease, before waiting for it.
    /// - throws: What `body` throws, or a ``PostgresCacheError``.
    public func withListLease<Result: Sendable>(
        _ key: String, onWait: @Sendable () -> Void = {}, _ body: () async throws -> Result
    ) async throws -> Result {
        let lockName = "slippers:list:" + key
        return try await client.withConnection { connection in
            let taken = try await mappingErrors {
                let rows = try await connection.query(
                    "SELECT pg_try_advisory_lock(hashtextextended(\(lockName), 0))", logger: logger)
                var taken = false
                for try await value in rows.decode(Bool.self) { taken = value }
                return taken
            }
            if !taken {
                onWait()
                _ = try await mappingErrors {
                    try await connection.query(
                        "SELECT pg_advisory_lock(hashtextextended(\(lockName), 0))", logger: logger)
                }
            }
            do {
                let result = try await body()
                _ = try? await connection.query(
                    "SELECT pg_advisory_unlock(hashtextextended(\(lockName), 0))", logger: logger)
                return result
            } catch {
                _ = try? await connection.query(
                    "SELECT pg_advisory_unlock(hashtextextended(\(lockName), 0))", logger: logger)
                throw error
            }
        }
    }
}
