import Foundation
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// Writes a list's items as CSV, in list order and each id once.
    ///
    /// The first record names the columns: every column any item has, in the order
    /// they first appear. Nested objects become dotted columns, arrays stay JSON text
    /// in one cell, and a missing or `null` value is an empty cell (see the rules of
    /// RFC 4180 quoting in the output). The items are read twice, once for the columns
    /// and once for the rows, so memory holds one item and the column names, however
    /// long the list.
    ///
    /// For example:
    ///
    /// ```swift
    /// var csv = Data()
    /// try cache.writeCSV(of: "https://api.example.com/posts") { csv.append($0) }
    /// ```
    ///
    /// - parameter key: The list's key.
    /// - parameter write: Receives the output in chunks, the header first.
    /// - throws: `CacheError` when there is no such list; `DatabaseError` on a
    ///   failed read; whatever `write` throws.
    public func writeCSV(of key: String, to write: (Data) throws -> Void) throws {
        var table = CSVTable()
        try forEachItem(in: key) { table.learnColumns(of: $0) }
        guard let header = table.header else { return }
        try write(header)
        try forEachItem(in: key) { try write(table.record(of: $0)) }
    }
}
