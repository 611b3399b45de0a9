import Foundation
import GRDB
import GRDBSQLite
import Slippers

/// One run of a prepared statement, its values bound and its rows read through SQLite's C API.
///
/// For the few statements of the write path that carry a value per item (the items' lookup and
/// insert, a page's membership): GRDB's `StatementArguments` box each value in an existential and
/// convert it again to bind it, which with their retains and releases cost a sync several percent
/// of its CPU. A run binds each value by its type, and leaves the statement reset with no
/// bindings, as GRDB expects to find it (GRDB resets and binds a statement before each of its
/// own runs).
///
/// Only for statements of the transaction at hand, run on the database's own queue: the
/// statement is GRDB's cached one, and the run is over before the closure that made it returns.
struct BoundStatement: ~Copyable {
    private let statement: Statement
    private let handle: SQLiteStatement

    /// Starts a run of `statement`, reset and with no bindings.
    init(_ statement: Statement) throws {
        self.statement = statement
        self.handle = statement.sqliteStatement
        try check(sqlite3_reset(handle))
        try check(sqlite3_clear_bindings(handle))
    }

    deinit {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer to the parameter at `index` (1-based).
    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a real to the parameter at `index` (1-based).
    func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text to the parameter at `index` (1-based), copied by SQLite.
    func bind(_ text: String, at index: Int32) throws {
        let code = text.withCString { chars in
            // The length given, not the C string's end: a text with a NUL is bound whole.
            sqlite3_bind_text(handle, index, chars, Int32(text.utf8.count), Self.transient)
        }
        try check(code)
    }

    /// Binds an item's key as ``ItemKey``'s `DatabaseValueConvertible` stores it: an integer or text.
    func bind(_ key: ItemKey, at index: Int32) throws {
        switch key {
        case .integer(let value): try bind(Int64(value), at: index)
        case .string(let value): try bind(value, at: index)
        }
    }

    /// Binds a blob to the parameter at `index` (1-based), copied by SQLite.
    func bind(blob data: Data, at index: Int32) throws {
        let code = data.withUnsafeBytes { bytes in
            // A null pointer would bind NULL: an empty blob is bound as one.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), Self.transient)
        }
        try check(code)
    }

    /// Steps once: `true` when a row is ready to be read, `false` when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw error(code)
        }
    }

    /// Steps until the statement is done.
    func run() throws {
        while try step() {}
    }

    /// The integer in the current row's column `index` (0-based).
    func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The current row's column `index` (0-based) as an item key: an integer or text, else `nil`.
    func itemKey(at index: Int32) -> ItemKey? {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return Int(exactly: sqlite3_column_int64(handle, index)).map(ItemKey.integer)
        case SQLITE_TEXT: return .string(text(at: index))
        default: return nil
        }
    }

    /// The current row's column `index` (0-based) as text.
    func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The current row's column `index` (0-based) as bytes (a blob, or text's UTF-8), copied.
    func data(at index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> DatabaseError {
        let message = sqlite3_db_handle(handle).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }

    /// SQLite copies what is bound with it.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
