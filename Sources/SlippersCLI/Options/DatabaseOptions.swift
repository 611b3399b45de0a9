import ArgumentParser
import Foundation
import Logging
import SlippersSQLite
import SlippersStorage

/// The `--db` option shared by every command.
struct DatabaseOptions: ParsableArguments {
    /// The file used when neither `--db` nor `SLIPPERS_DB` names one.
    static let defaultFileName = "slippers.sqlite"

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The cache file, or a postgres://user@host:port/dbname URL (default: $SLIPPERS_DB, else ./\(DatabaseOptions.defaultFileName)).",
            valueName: "path-or-url"))
    var path: String?

    /// The path to open: the option, else the environment, else the default file.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path, !path.isEmpty { return path }
        if let path = environment["SLIPPERS_DB"], !path.isEmpty { return path }
        return Self.defaultFileName
    }

    /// Opens the existing cache read-only, for commands that only look: the file is never changed.
    ///
    /// - throws: `SQLiteCacheError.fileNotFound` when there is no file, or what opening it throws.
    func openForReading() throws -> SQLiteCache {
        try refusePostgres()
        return try SQLiteCache(path: resolvedPath(), mode: .readOnly)
    }

    /// Opens the existing cache to change it; a missing file is an error, not a new empty cache.
    ///
    /// (Opening for writing is itself a write: GRDB makes sure the write-ahead log exists.)
    ///
    /// - parameter logger: Where the cache logs.
    /// - throws: `SQLiteCacheError.fileNotFound` when there is no file, or what opening it throws.
    func openForWriting(logger: Logger = LoggingOptions.silent) throws -> SQLiteCache {
        try refusePostgres()
        let path = resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteCacheError.fileNotFound(path: path) }
        return try SQLiteCache(path: path, mode: .readWrite, logger: logger)
    }

    /// Opens the cache, creating and migrating the file when it does not exist yet; the cache logs to `logger`.
    func openCreatingIfNeeded(logger: Logger = LoggingOptions.silent) throws -> SQLiteCache {
        try refusePostgres()
        return try SQLiteCache(path: resolvedPath(), mode: .readWrite, logger: logger)
    }

    /// Whether the file exists and holds something (an empty file still needs its schema).
    var fileHasContent: Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolvedPath())
        return ((attributes?[.size] as? NSNumber)?.int64Value ?? 0) > 0
    }
}
