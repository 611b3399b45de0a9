import GRDBSQLite

/// A failed SQLite call: the result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    init(code: Int32, connection: OpaquePointer?) {
        self.code = code
        message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    }

    var description: String { "SQLite error \(code): \(message)" }
}
