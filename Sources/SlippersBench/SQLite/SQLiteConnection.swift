import GRDBSQLite

/// A connection through the raw SQLite C API, as a user without a library would write it.
///
/// The baselines use it rather than GRDB so that the floor is SQLite itself,
/// with nothing between the statement and the JSON decoder.
///
/// The connection runs in WAL mode with a busy timeout and the given
/// ``SynchronousMode``, which decides what a commit survives.
///
/// Not `Sendable`: an SQLite connection is used from one thread at a time, and
/// the benchmark uses each one from the thread that made it.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var begin: SQLiteStatement?
    private var commit: SQLiteStatement?

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - throws: ``SQLiteError`` when the file cannot be opened or configured.
    init(path: String, synchronous: SynchronousMode) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous.sql); PRAGMA busy_timeout = 5000;")
    }

    deinit {
        // Statements hold the connection open; they are finalized before it closes.
        begin = nil
        commit = nil
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }

    /// Compiles a statement, to be bound and run many times.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, connection: handle) }
        return SQLiteStatement(statement, connection: handle)
    }

    /// Runs `body` in one immediate transaction, rolled back when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        if begin == nil {
            begin = try prepare("BEGIN IMMEDIATE")
            commit = try prepare("COMMIT")
        }
        try begin!.run()
        do {
            let result = try body()
            try commit!.run()
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
