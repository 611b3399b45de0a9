import Foundation
import Logging
import SlippersPostgres
import SlippersStore

extension DatabaseOptions {
    /// Whether `--db` (or `SLIPPERS_DB`) names a PostgreSQL database rather than a file.
    var isPostgres: Bool { PostgresLocation.isPostgresURL(resolvedPath()) }

    /// The cache to read: the file, opened read-only, or the PostgreSQL database.
    ///
    /// - throws: As ``openForReading()``; for PostgreSQL, a `PostgresCacheError`.
    func openStorageForReading(logger: Logger = LoggingOptions.silent) async throws -> any CacheStorage {
        guard isPostgres else { return try openForReading() }
        return try await openPostgres(logger: logger)
    }

    /// The cache to change: the existing file, or the PostgreSQL database; a mistyped collection
    /// fails before anything is written.
    ///
    /// - throws: As ``openForWriting(collection:logger:)``; for PostgreSQL, a `PostgresCacheError`
    ///   or `StoreError.collectionNotFound`.
    func openStorageForWriting(collection: String? = nil, logger: Logger = LoggingOptions.silent) async throws
        -> any CacheStorage
    {
        guard isPostgres else { return try openForWriting(collection: collection, logger: logger) }
        let cache = try await openPostgres(logger: logger)
        if let collection, try await cache.collection(collection) == nil {
            throw StoreError.collectionNotFound(key: collection)
        }
        return cache
    }

    /// The cache to sync into: the file, made when it does not exist, or the PostgreSQL database.
    func openStorageCreatingIfNeeded(logger: Logger = LoggingOptions.silent) async throws -> any CacheStorage {
        guard isPostgres else { return try openCreatingIfNeeded(logger: logger) }
        return try await openPostgres(logger: logger)
    }

    /// The PostgreSQL database of `--db`, its schema made or migrated; its password is never printed.
    func openPostgres(logger: Logger) async throws -> PostgresCache {
        try await PostgresCache.open(try PostgresLocation(resolvedPath()), logger: logger)
    }
}

extension DatabaseOptions {
    /// Fails with one line when `--db` names a PostgreSQL database: the command needs a file
    /// (offline writes, the budget and the pager's live lists are the file's).
    func refusePostgres() throws {
        guard isPostgres else { return }
        let location = try PostgresLocation(resolvedPath())
        let command = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") } ?? "this command"
        throw StoreError.unsupported(operation: "slippers \(command)", location: location.description)
    }
}
