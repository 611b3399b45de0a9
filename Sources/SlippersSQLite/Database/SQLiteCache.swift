import Foundation
import GRDB
import Logging
import Slippers
import SlippersStorage
import Synchronization

/// An SQLite cache of paginated lists: lists of pages, pages of ordered item ids, items stored once.
///
/// The cache is untyped: items are JSON bytes (`RawItem`) filed under an
/// item type and an `ItemKey`. A ``Repository`` gives it a Swift type.
///
/// The file is opened in WAL mode with a busy timeout, so readers in this or
/// another process read while a writer writes. Every page write is one
/// transaction: a crash never leaves half a page and never loses a committed one.
///
/// For example:
///
/// ```swift
/// let cache = try SQLiteCache(path: "cache.sqlite")
/// try cache.savePage(page, at: 0, in: ListDescriptor(key: "posts", itemType: "Post"))
/// let first = try cache.page(at: 0, in: "posts")
/// ```
///
/// The cache, and the repositories, pagers and syncs over it, log to its
/// ``logger``: evictions at `info`; revalidation outcomes and decodes that
/// fall back to `JSONDecoder` at `debug`.
public final class SQLiteCache: Sendable {
    /// How a cache opens its file.
    public enum Mode: Sendable {
        /// Read and write; a missing file is created (readable by its owner only) and migrated.
        case readWrite
        /// Read only; the file must exist, and is never modified.
        case readOnly
    }

    /// The path of the database file.
    public let path: String
    /// How the file was opened.
    public let mode: Mode
    /// Where the cache and what works over it report what they do; discards it unless given.
    public let logger: Logger

    let reader: any DatabaseReader
    let writer: (any DatabaseWriter)?

    /// How long a connection waits for another one's lock before it reports `SQLITE_BUSY`.
    public static let busyTimeout: TimeInterval = 10
    /// When the budget was last checked after a save: see ``keepBudgetIfDue(now:)``.
    let budgetCheck = Mutex<Date?>(nil)
    /// The key of the file's fingerprints of request header values; `nil` for a file not migrated to it.
    let headerFingerprintKey: HeaderFingerprintKey?
    /// Whether ``close()`` ran: the connections are gone.
    private let isClosed = Mutex(false)

    /// Opens the cache at `path`, creating and migrating it when needed.
    ///
    /// An existing file is checked before anything can write to it: a file
    /// that is not SQLite, a damaged file, or one migrated by a newer version
    /// throws and is left untouched.
    ///
    /// - parameter path: The database file.
    /// - parameter mode: `.readWrite` (the default) or `.readOnly`.
    /// - parameter logger: Where to log; nothing is logged unless given.
    /// - throws: `SQLiteCacheError` naming the problem, or a `DatabaseError`.
    public convenience init(
        path: String, mode: Mode = .readWrite,
        logger: Logger = Logger(label: "slippers.sqlite", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try self.init(path: path, mode: mode, tracingStatements: nil, logger: logger)
    }

    /// Opens the cache at `path`; `trace`, when given, receives the SQL of every statement its connections run.
    ///
    /// For tests: `trace` shows which queries a feature sends, and
    /// `maxPageCount` caps the file's size in SQLite pages, so that a test
    /// fills the "disk" where it wants.
    init(
        path: String, mode: Mode, tracingStatements trace: (@Sendable (String) -> Void)?, maxPageCount: Int? = nil,
        logger: Logger = Logger(label: "slippers.sqlite", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.path = path
        self.mode = mode
        self.logger = logger
        // A directory, a device or a FIFO never reaches SQLite, which would create files beside it.
        try DatabaseFile.checkIsRegularFileOrMissing(path)
        var openPath = path
        switch mode {
        case .readOnly:
            guard DatabaseFile.exists(path) else { throw SQLiteCacheError.fileNotFound(path: path) }
            if DatabaseFile.writability(ofDirectoryOf: path) != .writable {
                // SQLite cannot create the `-shm` file here, and no writer can use the file either:
                // read it as immutable, which is exact only when its log holds nothing.
                if DatabaseFile.hasUncheckpointedChanges(path) {
                    throw SQLiteCacheError.uncheckpointedChanges(path: path)
                }
                openPath = DatabaseFile.immutableURI(for: path)
            }
            try DatabaseFile.validate(path, opening: openPath, busyTimeout: Self.busyTimeout)
        case .readWrite:
            try DatabaseFile.checkWritable(path)
            if DatabaseFile.exists(path) {
                try DatabaseFile.validate(path, busyTimeout: Self.busyTimeout)
            } else {
                try DatabaseFile.createMigrated(at: path, busyTimeout: Self.busyTimeout)
            }
        }

        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.readonly = mode == .readOnly
        configuration.prepareDatabase { db in
            // WAL with NORMAL sync is durable across process crashes (the case
            // this cache guards against); a power loss may roll back the last
            // transactions, never leave one half-applied.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            if let trace { db.trace { event in trace(event.description) } }
            if let maxPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maxPageCount)") }
        }
        do {
            switch mode {
            case .readWrite:
                let pool = try Self.retryingWhileBusy(path: path) {
                    try DatabasePool(path: path, configuration: configuration)
                }
                try Self.migrate(pool, path: path)
                // A file migrated to the views has its members recorded, but no view until one is made here.
                pool.writeWithoutTransaction { db in ItemViews.makeIfNoneWasMade(db) }
                reader = pool
                writer = pool
                // Read on the writer's connection: a reader's would be the pool's last to close, and a
                // read-only connection cannot checkpoint the log as the last one closing does.
                headerFingerprintKey = try pool.writeWithoutTransaction(Self.headerFingerprintKey)
            case .readOnly:
                let queue = try Self.retryingWhileBusy(path: path) {
                    try DatabaseQueue(path: openPath, configuration: configuration)
                }
                reader = queue
                writer = nil
                headerFingerprintKey = try queue.read(Self.headerFingerprintKey)
            }
        } catch let error as DatabaseError {
            throw DatabaseFile.classify(error, path: path)
        }
    }

    /// A cache held in memory only, for previews and tests: nothing is written to disk, and it is
    /// gone when the cache is released. Every other feature behaves as with a file.
    ///
    /// For example:
    ///
    /// ```swift
    /// let cache = try SQLiteCache.inMemory()
    /// ```
    ///
    /// - parameter logger: Where to log; nothing is logged unless given.
    /// - throws: What creating the schema throws (it does not fail short of memory).
    public static func inMemory(
        logger: Logger = Logger(label: "slippers.sqlite", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> SQLiteCache {
        try SQLiteCache(inMemoryWith: logger)
    }

    private init(inMemoryWith logger: Logger) throws {
        path = ":memory:"
        mode = .readWrite
        self.logger = logger
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        let queue = try DatabaseQueue(configuration: configuration)
        try Schema.migrator.migrate(queue)
        reader = queue
        writer = queue
        headerFingerprintKey = try queue.read(Self.headerFingerprintKey)
    }

    /// The file's key of header fingerprints, read once at opening.
    private static func headerFingerprintKey(_ db: Database) throws -> HeaderFingerprintKey? {
        guard try db.tableExists("settings") else { return nil }
        return try String.fetchOne(
            db, sql: "SELECT value FROM settings WHERE name = ?", arguments: [HeaderFingerprintKey.settingName]
        ).flatMap(HeaderFingerprintKey.init(hex:))
    }

    /// Runs `updates` in one write transaction.
    ///
    /// A write that finds the file locked waits (``busyTimeout``) and is tried
    /// again within a bounded time, so `SQLITE_BUSY` reaches no caller while
    /// another process merely holds the lock.
    ///
    /// - throws: `SQLiteCacheError.readOnly(path:)` on a read-only store, `SQLiteCacheError.diskFull(path:)`,
    ///   `SQLiteCacheError.busy(path:)` after the bounded wait, or what `updates` throws.
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) throws -> T {
        try checkOpen()
        guard let writer else { throw SQLiteCacheError.readOnly(path: path) }
        return try Self.retryingWhileBusy(path: path) {
            try Self.translatingWriteErrors(path: path) { try writer.write(updates) }
        }
    }

    /// Runs `updates` with the writer outside any transaction: each statement commits on its own.
    ///
    /// For one statement that is atomic by itself; several statements need ``write(_:)``.
    ///
    /// - throws: `SQLiteCacheError.readOnly(path:)` on a read-only store, or what `updates` throws.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) throws -> T {
        try checkOpen()
        guard let writer else { throw SQLiteCacheError.readOnly(path: path) }
        return try Self.retryingWhileBusy(path: path) {
            try Self.translatingWriteErrors(path: path) { try writer.writeWithoutTransaction(updates) }
        }
    }

    /// Runs `body` with the writer, outside any transaction (for `VACUUM` and checkpoints).
    func withWriter<T>(_ body: (any DatabaseWriter) throws -> T) throws -> T {
        guard let writer else { throw SQLiteCacheError.readOnly(path: path) }
        return try Self.retryingWhileBusy(path: path) {
            try Self.translatingWriteErrors(path: path) { try body(writer) }
        }
    }

    /// Runs `value` in one read transaction: it sees a consistent snapshot.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) throws -> T {
        try checkOpen()
        return try Self.retryingWhileBusy(path: path) { try reader.read(value) }
    }

    /// Runs `value` outside an explicit transaction: for a single statement, which SQLite
    /// reads from one snapshot on its own, without the cost of `BEGIN` and `COMMIT`.
    func readOneStatement<T>(_ value: (Database) throws -> T) throws -> T {
        try checkOpen()
        return try Self.retryingWhileBusy(path: path) { try reader.unsafeRead(value) }
    }

    /// Writes the log into the file and closes the database connections; the cache cannot be used afterwards.
    ///
    /// The write-ahead log is checkpointed first, so the file alone (a copy, a backup, a
    /// read-only mount) holds everything the cache holds. A cache released without
    /// `close()` checkpoints the same way as it goes.
    public func close() throws {
        let wasOpen = isClosed.withLock { closed in
            let wasOpen = !closed
            closed = true
            return wasOpen
        }
        guard wasOpen else { return }
        checkpoint()
        try reader.close()
    }

    /// Throws ``SQLiteCacheError/closed(path:)`` once ``close()`` ran, instead of SQLite's misuse error.
    private func checkOpen() throws {
        if isClosed.withLock({ $0 }) { throw SQLiteCacheError.closed(path: path) }
    }

    deinit {
        if !isClosed.withLock({ $0 }) { checkpoint() }
    }

    /// Copies the write-ahead log into the file and empties the log, without waiting for anyone.
    ///
    /// The log is truncated to nothing when no other connection reads from it, so a log left
    /// beside the file (a file deleted without its `-wal`) holds nothing SQLite could replay into
    /// a new file of the same name. When a reader of another process still needs the log, its
    /// frames are copied and kept: that reader keeps what it reads, and checkpoints when it is the
    /// last to close.
    private func checkpoint() {
        guard let writer, path != ":memory:" else { return }
        _ = try? writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.busyTimeout * 1000))") }
            if (try? db.checkpoint(.truncate)) == nil { try db.checkpoint(.passive) }
        }
    }
}
