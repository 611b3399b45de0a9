import Foundation
import GRDBSQLite
import Slippers

/// A prepared statement: bind, step through rows, reset, and run again.
///
/// Parameters are numbered from 1 and columns from 0, as in the C API. A
/// statement is reset before it is bound again; bindings stay until rebound.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    init(_ handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds a blob to parameter `index`; SQLite copies the bytes.
    func bind(_ blob: Data, at index: Int32) throws {
        try blob.withUnsafeBytes { bytes in
            try check(sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), transient))
        }
    }

    /// Binds an integer to parameter `index`.
    func bind(_ value: Int, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds a floating-point number to parameter `index`.
    /// Binds an item's key: its integer, or its text.
    func bind(_ key: ItemKey, at index: Int32) throws {
        switch key {
        case .integer(let value): try bind(value, at: index)
        case .string(let value): try bind(value, at: index)
        }
    }

    func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text to parameter `index`, or `NULL` when `text` is `nil`; SQLite copies the bytes.
    func bind(_ text: String?, at index: Int32) throws {
        guard let text else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_text(handle, index, text, -1, transient))
    }

    /// Advances to the next row: `true` when there is one, `false` when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(code: code, connection: connection)
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws {
        while try step() {}
        try reset()
    }

    /// The current row's column `index` as bytes (copied out of SQLite's buffer).
    func blob(at index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The current row's column `index` as an integer.
    func integer(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// Resets the statement so it can run again.
    func reset() throws {
        try check(sqlite3_reset(handle))
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection) }
    }
}

// SQLITE_TRANSIENT is a C macro that Swift does not import: the value -1 as a destructor.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
