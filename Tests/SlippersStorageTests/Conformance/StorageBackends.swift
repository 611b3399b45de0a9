import Foundation
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// The backends every storage contract is checked on: a cache file in a temporary directory, and
/// a database of a real PostgreSQL server the test starts. A scenario runs on each, through the
/// storage seam only, and must end the same on both.
enum StorageBackends {
    /// Runs `scenario` on a new file, then on a new PostgreSQL database, and expects the two
    /// results equal; returns the file's.
    @discardableResult
    static func expectSame<Result: Equatable & Sendable>(
        _ scenario: (any CacheStorage) async throws -> Result,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        let directory = try TemporaryDirectory()
        let file = try SQLiteCache(path: directory.path())
        let onFile = try await scenario(file)
        try file.close()
        try await PostgresServer.with { server in
            let cache = try await PostgresCache.open(
                try PostgresLocation(server.url(database: try await server.makeDatabase())))
            let onPostgres = try await scenario(cache)
            try await cache.close()
            #expect(onPostgres == onFile, sourceLocation: sourceLocation)
        }
        return onFile
    }
}
