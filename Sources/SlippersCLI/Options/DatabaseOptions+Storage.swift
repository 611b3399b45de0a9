import Foundation
import Logging
import SlippersPostgres
import SlippersSQLite
import SlippersStorage

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

    /// The cache to change: the existing file, or the PostgreSQL database.
    ///
    /// - throws: As ``openForWriting(logger:)``; for PostgreSQL, a `PostgresCacheError`.
    func openStorageForWriting(logger: Logger = LoggingOptions.silent) async throws -> any CacheStorage {
        guard isPostgres else { return try openForWriting(logger: logger) }
        return try await openPostgres(logger: logger)
    }

    /// The key of the list a person named (see `listKey(naming:account:)`: its key, the URL
    /// given to sync, its type's short name), among the lists of the selected account, found in the cache opened read-only, so that a
    /// mistyped name fails before anything can write to the file.
    ///
    /// - throws: `CacheError.listNotFound` when no list has that name, or what opening the cache throws.
    func existingListKey(
        naming name: String, account: AccountSelectionOptions, logger: Logger = LoggingOptions.silent
    ) async throws -> String {
        let reader = try await openStorageForReading(logger: logger)
        do {
            let key = try await reader.listKey(
                naming: name, account: try account.selection(in: reader, typed: name))
            let exists = try await reader.list(key) != nil
            try await reader.close()
            guard exists else { throw CacheError.listNotFound(key: name) }
            return key
        } catch {
            try? await reader.close()
            throw error
        }
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
        throw CacheError.unsupported(operation: "slippers \(command)", location: location.description)
    }
}
